/**
 * The rule a new admin password must meet: the console's (repo-monitor's admin/password-rule.ts),
 * so both apps ask the same. Passwords set before under the older 8-character rule keep working at
 * login; only a new password is held to this.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** What a new admin password breaks, or undefined when it meets the rule. */
export function passwordRuleViolation(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}
