import { ValidationFailed } from '../common/panel-error';

/**
 * Letters and digits of any script (主号 as well as main), `_`, `-`, `.`; 1..64 characters; no
 * leading dot (so never `.`, `..` or a hidden file); not one of the fixed path segments under
 * /api/accounts/, which would shadow the account. None of these characters is special in a file
 * name, so the name is its own file name under `sessions/`.
 */
export const ACCOUNT_NAME_PATTERN = /^(?!\.)(?!(?:status|login|qr-login|import-session)$)[\p{L}\p{M}\p{N}_.-]{1,64}$/u;

export function isAccountName(value: unknown): value is string {
  return typeof value === 'string' && ACCOUNT_NAME_PATTERN.test(value);
}

/** Refuses a name that is not path-safe with 400, before anything touches the file system. */
export function assertAccountName(value: unknown): string {
  if (!isAccountName(value)) {
    throw new ValidationFailed(
      'account_name must be 1-64 characters of letters (any script), digits, "_", "-" or "." and must not start with a dot',
    );
  }
  return value;
}
