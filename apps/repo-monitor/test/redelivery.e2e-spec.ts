import { generateGitHubAppKeyPair, LocalGitHubApi, LocalTelegramBotApi, requestJson, tempDir, waitFor } from '@shared/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminHeaders, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';
import { INBOUND_SECRET, installationCreated, issueEvent } from './github-fixtures';

const APP_ID = 5151;
const INSTALLATION_ID = 88;
const CHAT_ID = '6160';
const SWEEP_INTERVAL_MS = 5_000;
const MISSED = [1, 2, 3, 4].map((number) => ({ number, title: `Missed while down ${number}` }));

interface RecoveredList {
  items: Array<{ guid: string; status: string; requests: number; event: string }>;
  total: number;
  last_sweep: { ran: boolean; looked_at: number; requested: number; recovered: number } | null;
}

/**
 * GitHub does not redeliver a failed delivery by itself: repo-monitor is stopped while the GitHub
 * stand-in sends four issue events (each attempt fails, recorded with status_code 0), then started
 * again. Its redelivery sweep finds them in GET /app/hook/deliveries, asks for each once, and every
 * one reaches the local Bot API exactly once, within two sweep intervals of the start.
 */
describe('redelivery sweep', () => {
  const keyDir = tempDir('monitor-redelivery-key-');
  let github: LocalGitHubApi;
  let telegram: LocalTelegramBotApi;
  let first: RunningMonitor;
  let second: RunningMonitor | undefined;
  const repositories: Array<{ full_name: string; id: number }> = [];

  beforeAll(async () => {
    const keys = generateGitHubAppKeyPair();
    github = await new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey }).start();
    telegram = await new LocalTelegramBotApi().start();
    const keyPath = join(keyDir.path, 'app.pem');
    writeFileSync(keyPath, keys.privateKey);
    github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: ['acme/api', 'acme/web'] });
    for (const name of ['acme/api', 'acme/web']) repositories.push({ full_name: name, id: Number(github.repositories.get(name)?.id) });
    first = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_APP_ID: String(APP_ID),
        MONITOR_VCS_PRIVATE_KEY_PATH: keyPath,
        MONITOR_VCS_API_URL: github.url,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_BOT_TOKEN: telegram.token,
        MONITOR_BOT_CHAT_ID: CHAT_ID,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
        MONITOR_REDELIVERY_INTERVAL: `${SWEEP_INTERVAL_MS}ms`,
      },
    });
    github.appWebhook = { url: `${first.url}/webhooks/github`, secret: INBOUND_SECRET };
  });

  afterAll(async () => {
    await second?.stop();
    await first?.close();
    await Promise.all([github.close(), telegram.close()]);
    keyDir.remove();
  });

  it('recovers every delivery sent while it was down, each notified exactly once', async () => {
    // While up: the installation arrives (a baseline, no notification) and is never asked for again.
    const installed = await github.sendAppWebhook('installation', installationCreated(INSTALLATION_ID, 'acme', repositories));
    expect(installed.status_code).toBe(202);
    const session = await loginAdmin(first);
    await waitFor(async () => {
      const list = await requestJson<{ items: Array<{ baseline_imported_at: string | null }>; total: number }>(first.url, '/api/v1/repositories', { headers: adminHeaders(session) });
      return list.body.total === 2 && list.body.items.every((repository) => repository.baseline_imported_at !== null);
    }, 20_000);

    await first.stop();
    const missed = [];
    for (const issue of MISSED) {
      const repository = repositories[issue.number % 2] as { full_name: string; id: number };
      missed.push(await github.sendAppWebhook('issues', issueEvent('opened', INSTALLATION_ID, repository, issue.number, issue.title, '2024-06-01T10:00:00Z')));
    }
    expect(missed.map((attempt) => attempt.status_code)).toEqual([0, 0, 0, 0]);
    expect(telegram.messages).toHaveLength(0);

    second = await startMonitor({ reuseEnv: first.env });
    const startedAt = Date.now();
    // The new process listens on another port; GitHub's App settings would keep one public URL.
    github.appWebhook = { url: `${second.url}/webhooks/github`, secret: INBOUND_SECRET };
    const running = second;

    const titled = (title: string) => telegram.messages.filter((message) => message.text.includes(title));
    await waitFor(() => MISSED.every((issue) => titled(issue.title).length >= 1), 2 * SWEEP_INTERVAL_MS + 5_000);
    expect(Date.now() - startedAt).toBeLessThan(2 * SWEEP_INTERVAL_MS + 5_000);
    expect(github.redeliveryRequests.sort()).toEqual(missed.map((attempt) => attempt.id).sort());

    // GitHub sending one of them yet again changes nothing: the inbox knows the guid.
    const again = await github.sendAppWebhook('issues', {}, { guid: missed[0]?.guid, body: missed[0]?.body, redelivery: true });
    expect(again.status_code).toBe(202);

    const admin = await loginAdmin(running);
    const list = () => requestJson<RecoveredList>(running.url, '/api/v1/recovered-deliveries', { headers: adminHeaders(admin) });
    // The next sweep sees them in the inbox and marks them recovered; nothing is asked for twice.
    await waitFor(async () => (await list()).body.items.filter((item) => item.status === 'recovered').length === 4, 2 * SWEEP_INTERVAL_MS + 5_000);
    const recovered = (await list()).body;
    expect(recovered.total).toBe(4);
    expect(recovered.items.map((item) => item.guid).sort()).toEqual(missed.map((attempt) => attempt.guid).sort());
    expect(recovered.items.every((item) => item.requests === 1 && item.event === 'issues')).toBe(true);
    expect(recovered.last_sweep).toMatchObject({ ran: true });

    const checked = await requestJson<{ ran: boolean; failed: number; requested: number }>(running.url, '/api/v1/recovered-deliveries/check', { method: 'POST', headers: adminHeaders(admin) });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ ran: true, failed: 0, requested: 0 });
    await github.redeliveriesSettled();
    expect(github.redeliveryRequests).toHaveLength(4);
    for (const issue of MISSED) expect(titled(issue.title)).toHaveLength(1);

    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/monitor_redelivery_deliveries_total\{outcome="requested"\} 4/);
    expect(metrics).toMatch(/monitor_redelivery_deliveries_total\{outcome="recovered"\} 4/);
    const audit = await requestJson<{ items: Array<{ action: string; actor: string }> }>(running.url, '/api/v1/audit-log?per_page=100', { headers: adminHeaders(admin) });
    expect(audit.body.items.map((entry) => entry.action)).toEqual(expect.arrayContaining(['redelivery.swept', 'redelivery.check_requested']));
  });

  it('answers 401 without a session and 400 on a bad status filter', async () => {
    const target = second ?? first;
    expect((await requestJson(target.url, '/api/v1/recovered-deliveries')).status).toBe(401);
    expect((await requestJson(target.url, '/api/v1/recovered-deliveries/check', { method: 'POST' })).status).toBe(401);
    const admin = await loginAdmin(target);
    const bad = await requestJson(target.url, '/api/v1/recovered-deliveries?status=lost', { headers: adminHeaders(admin) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error_code: 'validation_failed' });
  });
});
