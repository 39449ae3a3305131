/** The service's rules for the first admin (apps/repo-monitor/src/app/admin: SetupRequestDto, password-rule.ts). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
const USERNAME = /^[A-Za-z0-9_.@-]{1,64}$/;

export interface SetupValues {
  username: string;
  password: string;
  repeat: string;
}

/** What is wrong with each field, as the key of its message under `setup.` (none when the form may be sent). */
export function setupProblems(values: SetupValues): Partial<Record<keyof SetupValues, 'usernameInvalid' | 'passwordLength' | 'mismatch'>> {
  const problems: Partial<Record<keyof SetupValues, 'usernameInvalid' | 'passwordLength' | 'mismatch'>> = {};
  if (!USERNAME.test(values.username.trim())) problems.username = 'usernameInvalid';
  if (values.password.length < PASSWORD_MIN_LENGTH || values.password.length > PASSWORD_MAX_LENGTH) problems.password = 'passwordLength';
  else if (values.password !== values.repeat) problems.repeat = 'mismatch';
  return problems;
}
