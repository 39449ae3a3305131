import { hashPassword, verifyPassword } from './password-hashing';

describe('password hashing', () => {
  // Four Argon2id runs at 64 MiB each: well under a second on an idle machine, several on a busy one.
  jest.setTimeout(30_000);

  it('hashes with argon2id, a fresh salt each time, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(first).not.toBe(second);
    await expect(verifyPassword(first, 'correct horse battery')).resolves.toBe(true);
    await expect(verifyPassword(first, 'correct horse batteryX')).resolves.toBe(false);
  });

  it('answers false for malformed or foreign hashes instead of throwing', async () => {
    for (const hash of ['', 'not a hash', '$argon2id$v=19$m=65536,t=3,p=4$broken', '$2b$10$abcdefghijklmnopqrstuu']) {
      await expect(verifyPassword(hash, 'anything')).resolves.toBe(false);
    }
  });
});
