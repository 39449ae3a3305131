import { Logger } from '@nestjs/common';
import { requestJson } from '@shared/testing';
import { loginAsAdmin, startPanel } from './harness';

/**
 * Issue 33 item 10: one password rule for both apps (12 to 256 characters, the console's). A new
 * password is held to it; a short ADMIN_PASSWORD that started an install before still does, with a
 * warning that names the rule, and a password set before keeps working at login.
 */
describe('panel-api the admin password rule', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('accepts a short ADMIN_PASSWORD at first start with a warning naming the rule, and holds a new password to it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const shortPassword = 'nine char';
    const panel = await startPanel({ env: { ADMIN_PASSWORD: shortPassword } });
    try {
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings).toContainEqual(expect.stringMatching(/^ADMIN_PASSWORD is shorter than the password rule \(at least 12 characters\)/));
      const token = await loginAsAdmin(panel, shortPassword);
      const change = (current: string, next: string) =>
        requestJson<{ code: string; fields?: unknown[] }>(panel.url, '/api/auth/password', { method: 'PUT', token, body: { current_password: current, new_password: next } });
      const tooShort = await change(shortPassword, 'eleven char');
      expect(tooShort.status).toBe(400);
      expect(tooShort.body).toMatchObject({ code: 'validation_failed', fields: [{ field: 'new_password', rule: 'too_short', min: 12, message: 'Use at least 12 characters.' }] });
      // Refused, so nothing changed: the old password still opens the panel.
      expect((await requestJson(panel.url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password: shortPassword } })).status).toBe(200);
      const accepted = await change(shortPassword, 'twelve chars');
      expect(accepted.status).toBe(200);
      await loginAsAdmin(panel, 'twelve chars');
    } finally {
      await panel.close();
    }
  });

  it('says nothing of the rule for an ADMIN_PASSWORD that meets it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const panel = await startPanel({ env: { ADMIN_PASSWORD: 'a long enough password' } });
    try {
      expect(warn.mock.calls.map((call) => String(call[0])).filter((message) => message.includes('password rule'))).toEqual([]);
    } finally {
      await panel.close();
    }
  });
});
