import { BadRequestException } from '@nestjs/common';

/**
 * Letters, digits, `_`, `-`, `.`; 1..64 characters; no leading dot (so never `.`, `..` or a hidden
 * file); not one of the fixed path segments under /api/accounts/, which would shadow the account.
 */
export const ACCOUNT_NAME_PATTERN = /^(?!\.)(?!(?:status|login|qr-login|import-session)$)[A-Za-z0-9_.-]{1,64}$/;

export function isAccountName(value: unknown): value is string {
  return typeof value === 'string' && ACCOUNT_NAME_PATTERN.test(value);
}

/** Refuses a name that is not path-safe with 400, before anything touches the file system. */
export function assertAccountName(value: unknown): string {
  if (!isAccountName(value)) {
    throw new BadRequestException(
      'account_name must be 1-64 characters of letters, digits, "_", "-" or "." and must not start with a dot',
    );
  }
  return value;
}
