import { HttpException } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccountNotFound, ERROR_CODES, ERROR_STATUS, NeedsRelogin, PanelError, TaskBusy } from './panel-error';

/** The rows `| \`code\` | status | meaning |` of docs/panel-api-errors.md. */
function documentedCodes(): Map<string, string> {
  const text = readFileSync(join(__dirname, '../../../../../docs/panel-api-errors.md'), 'utf8');
  const rows = [...text.matchAll(/^\| `([a-z0-9_]+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((row) => [row[1], row[2].trim()]));
}

describe('error codes', () => {
  it('docs/panel-api-errors.md documents exactly the codes of ERROR_STATUS, each once, with its status', () => {
    const documented = documentedCodes();
    expect([...documented.keys()].sort()).toEqual([...ERROR_CODES].sort());
    const text = readFileSync(join(__dirname, '../../../../../docs/panel-api-errors.md'), 'utf8');
    expect(text.match(/^\| `[a-z0-9_]+` \|/gm)).toHaveLength(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      // request_refused stands for any 4xx without a code of its own.
      const expected = code === 'request_refused' ? 'other 4xx' : String(ERROR_STATUS[code]);
      expect([code, documented.get(code)]).toEqual([code, expected]);
    }
  });

  it('codes are snake_case and statuses are errors', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    }
  });

  it('a PanelError knows its code, not HTTP (ERROR_STATUS maps the code); the domain classes say which case they are', () => {
    const busy = new PanelError('backup_busy', 'busy');
    expect(busy).not.toBeInstanceOf(HttpException);
    expect(ERROR_STATUS[busy.code]).toBe(409);
    const missing = new AccountNotFound('alice');
    expect([missing.code, ERROR_STATUS[missing.code], missing.message, missing.name]).toEqual(['account_not_found', 404, 'Account alice not found', 'AccountNotFound']);
    const relogin = new NeedsRelogin('alice', 'it has no stored session');
    expect([relogin.code, ERROR_STATUS[relogin.code]]).toEqual(['needs_relogin', 409]);
    expect(relogin.message).toBe('Account alice needs_relogin: it has no stored session. Log in again (phone or QR login).');
    expect([new TaskBusy('daily').code, new TaskBusy('daily').message]).toEqual(['task_busy', 'Task daily is already running']);
  });
});
