import { isAccountName } from './account-name';

describe('account names', () => {
  it.each(['main', 'work_2', 'a.b-c', 'statuses', 'x'.repeat(64), '主号', 'Größe'])('accepts %s', (name) => {
    expect(isAccountName(name)).toBe(true);
  });

  it.each(['', '.hidden', '..', 'a/b', 'a b', 'x'.repeat(65), '主号/x', '🙂', 'status', 'login', 'qr-login', 'import-session'])(
    'refuses %j (unsafe on disk or shadowed by a fixed route)',
    (name) => {
      expect(isAccountName(name)).toBe(false);
    },
  );
});
