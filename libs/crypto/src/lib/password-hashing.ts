import * as argon2 from 'argon2';

/** Argon2id with the library's defaults (64 MiB, 3 passes, a fresh salt per hash). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** Whether `password` matches `hash`; false, never an exception, for a malformed or foreign hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
