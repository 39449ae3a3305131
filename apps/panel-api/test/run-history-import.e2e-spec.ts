import { requestJson, tempDir, testDatabaseDriver } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface History {
  history: Array<{ run_id: string; started_at: string; flow_log: Array<{ message: string }> }>;
}

/**
 * Issue 31 item 1: a run's full flow log is in the database, so any replica (any data directory)
 * shows it, and the `.signer/history/` files of an earlier version are imported into their rows once.
 */
describe('panel-api run history: flow logs in the database, history files imported once', () => {
  it('shows a run\'s flow log from the database, imports an earlier version\'s history file once, and (PostgreSQL) shows it on a replica with an empty data directory', async () => {
    const telegram = new TelegramSimulator();
    telegram.addBot({ username: 'h1_history_bot', onMessage: () => ({ text: 'Checked in' }) });
    const overrides = [{ provide: TELEGRAM_GATEWAY, useValue: telegram }];
    const first = await startPanel({ overrides, env: { APP_JWT_SECRET: 'h1-run-history-import-shared-jwt-0123456789' } });
    const token = await loginAsAdmin(first);
    const user = telegram.createUser({ phone: '+31 600 730 001' });
    expect((await requestJson(first.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'logger', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const task = { name: 'daily', account_name: 'logger', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h1_history_bot', actions: [{ action: 1, text: '/checkin' }] }] };
    expect((await requestJson(first.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
    expect((await requestJson(first.url, '/api/sign-tasks/daily/run', { method: 'POST', token, body: {} })).status).toBe(202);
    const deadline = Date.now() + 20_000;
    let history = (await requestJson<History>(first.url, '/api/sign-tasks/daily/history', { token })).body.history;
    while (history.length === 0) {
      if (Date.now() > deadline) throw new Error('the run did not reach the history');
      await new Promise((resolve) => setTimeout(resolve, 100));
      history = (await requestJson<History>(first.url, '/api/sign-tasks/daily/history', { token })).body.history;
    }
    const runId = history[0].run_id;
    expect(history[0].flow_log.map((entry) => entry.message)).toContain('reply: Checked in');
    expect(existsSync(join(first.dataDir, '.signer', 'history', 'daily'))).toBe(false);

    // What an earlier version left: the row without its flow log, the log in a history file.
    await first.app.get(DataSource).query(`UPDATE "sign_logs" SET "flow_log" = NULL, "started_at" = NULL`);
    await first.stop();
    const folder = join(first.dataDir, '.signer', 'history', 'daily');
    mkdirSync(folder, { recursive: true });
    const fileLog = [{ at: '2026-01-02T03:00:01.000Z', step: 'chat 1', level: 'info', message: 'from the history file' }];
    writeFileSync(join(folder, `${runId}.json`), JSON.stringify({ run_id: runId, task_name: 'daily', started_at: '2026-01-02T03:00:00.000Z', flow_log: fileLog }));

    const second = await startPanel({ overrides, reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl }, env: { APP_JWT_SECRET: 'h1-run-history-import-shared-jwt-0123456789' } });
    const dirs: Array<ReturnType<typeof tempDir>> = [];
    try {
      const imported = (await requestJson<History>(second.url, '/api/sign-tasks/daily/history', { token })).body.history;
      expect(imported[0]).toMatchObject({ run_id: runId, started_at: '2026-01-02T03:00:00.000Z' });
      expect(imported[0].flow_log.map((entry) => entry.message)).toEqual(['from the history file']);
      // The folder is set aside (an empty one takes its place), so the next start imports nothing.
      expect(readdirSync(join(first.dataDir, '.signer', 'history'))).toEqual([]);
      expect(readdirSync(join(first.dataDir, '.signer')).filter((name) => name.startsWith('history.imported-'))).toHaveLength(1);

      if (testDatabaseDriver() === 'postgres') {
        // Another replica with its own empty data directory shows the same log.
        const dir = tempDir('panel-history-replica-');
        dirs.push(dir);
        const replica = await startPanel({ overrides, reuse: { dataDir: dir.path, databaseUrl: first.databaseUrl }, env: { APP_JWT_SECRET: 'h1-run-history-import-shared-jwt-0123456789' } });
        try {
          const seen = (await requestJson<History>(replica.url, '/api/sign-tasks/daily/history', { token })).body.history;
          expect(seen[0].flow_log.map((entry) => entry.message)).toEqual(['from the history file']);
        } finally {
          await replica.stop();
        }
      }
    } finally {
      await second.stop();
      // The first instance made the data directory and the database: it removes both.
      await first.close();
      for (const dir of dirs) dir.remove();
    }
  });
});
