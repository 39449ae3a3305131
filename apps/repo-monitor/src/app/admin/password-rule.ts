export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** The rule a new admin password must meet, or undefined when it does. */
export function passwordRuleViolation(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

/** The limit a password breaks, as the details of a validation_failed on `field` (rule and limit for a form). */
export function passwordRuleDetails(password: string, field: string): Record<string, unknown> {
  if (password.length < PASSWORD_MIN_LENGTH) return { field, rule: 'too_short', min: PASSWORD_MIN_LENGTH };
  return { field, rule: 'too_long', max: PASSWORD_MAX_LENGTH };
}
