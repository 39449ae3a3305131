import { createHash } from 'node:crypto';
import { promtoolCheckMetrics, requestJson, waitFor } from '@shared/testing';
import { BackupService } from '../src/app/backups/backup.service';
import { KeywordHitsFtsIndexer } from '../src/app/keyword-hits/keyword-hits-fts-indexer';
import { KeywordHitsService } from '../src/app/keyword-hits/keyword-hits.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

const METRICS_TOKEN = 'panel-metrics-token-0123456789';
const DEALS = '-100444';

async function scrape(url: string, authorization?: string): Promise<{ status: number; text: string; contentType: string | null; wwwAuthenticate: string | null }> {
  const response = await fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
  return {
    status: response.status,
    text: await response.text(),
    contentType: response.headers.get('content-type'),
    wwwAuthenticate: response.headers.get('www-authenticate'),
  };
}

/** The value of one series (`name{labels}` exactly as exposed), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('panel-api /metrics with APP_METRICS_TOKEN', () => {
  const telegram = new TelegramSimulator();
  let panel: RunningPanel & { databaseUrl?: string };
  let token: string;
  let alice: SimUser;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });
  const metrics = async (): Promise<string> => {
    const scraped = await scrape(panel.url, `Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    return scraped.text;
  };

  beforeAll(async () => {
    alice = telegram.createUser({ phone: '+31600000301', firstName: 'Alice', username: 'alice' });
    telegram.addGroup({ id: DEALS, title: 'Deals' });
    telegram.addBot({ username: 'checkin_bot', onMessage: () => ({ text: 'Checked in' }) });
    panel = await startPanel({ env: { APP_METRICS_TOKEN: METRICS_TOKEN }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    const imported = await call('POST', '/api/accounts/import-session', { account_name: 'alice', session_string: telegram.issueSession(alice.id) });
    expect(imported.status).toBe(201);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without the metrics token, with a wrong one and with an access token; 200 with it', async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, `Bearer ${token}`, METRICS_TOKEN]) {
      const refused = await scrape(panel.url, authorization);
      expect({ authorization, status: refused.status }).toEqual({ authorization, status: 401 });
      expect(JSON.parse(refused.text)).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('APP_METRICS_TOKEN'), code: 'unauthorized' });
      expect(refused.wwwAuthenticate).toBe('Bearer realm="metrics"');
      expect(refused.text).not.toContain(METRICS_TOKEN);
    }
    const scraped = await scrape(panel.url, `Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toContain('text/plain');
    for (const series of [
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
      'panel_runs_total{result="success",failure_category="none"}',
      'panel_backups_total{kind="auto",result="success"}',
      'panel_listener_connections{state="listening"}',
      'panel_scheduler_lock_held',
      'panel_keyword_hits_search_backlog',
    ]) {
      expect(scraped.text).toContain(`${series} `);
    }
  });

  it('counts runs by result and failure category as the runner finishes them', async () => {
    const created = await call('POST', '/api/sign-tasks', {
      name: 'checkin',
      account_name: 'alice',
      sign_at: '0 8 * * *',
      execution_mode: 'fixed',
      retry_count: 0,
      chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin' }] }],
    });
    expect(created.status).toBe(201);
    const broken = await call('POST', '/api/sign-tasks', {
      name: 'broken',
      account_name: 'alice',
      sign_at: '0 8 * * *',
      execution_mode: 'fixed',
      retry_count: 0,
      chats: [{ chat_id: '@nobody_here_bot', actions: [{ action: 1, text: '/checkin' }] }],
    });
    expect(broken.status).toBe(201);
    const before = await metrics();

    const finished = async (name: string) => {
      expect((await call('POST', `/api/sign-tasks/${name}/run`, {})).status).toBe(202);
      let run: { state: string; success: boolean | null; failure_category: string } | undefined;
      await waitFor(async () => {
        run = (await call<{ runs: Array<{ state: string; success: boolean | null; failure_category: string }> }>('GET', `/api/sign-tasks/${name}/run/status`)).body.runs[0];
        return run !== undefined && run.state !== 'running';
      });
      return run as { state: string; success: boolean | null; failure_category: string };
    };
    expect(await finished('checkin')).toMatchObject({ success: true });
    const failed = await finished('broken');
    expect(failed).toMatchObject({ success: false });
    expect(failed.failure_category).not.toBe('none');

    const after = await metrics();
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('panel_runs_total{result="success",failure_category="none"}')).toBe(1);
    expect(delta(`panel_runs_total{result="failure",failure_category="${failed.failure_category}"}`)).toBe(1);
  });

  it('counts recorded keyword hits and shows the listener connection', async () => {
    const created = await call('POST', '/api/sign-tasks', {
      name: 'deals',
      account_name: 'alice',
      execution_mode: 'listen',
      chats: [{ chat_id: Number(DEALS), name: 'Deals', actions: [{ action: 8, keywords: ['gift'], push_channel: 'telegram' }] }],
    });
    expect(created.status).toBe(201);
    await waitFor(async () => value(await metrics(), 'panel_listener_connections{state="listening"}') === 1);
    // The account name is not in the scrape: its label is the first 12 hex digits of its SHA-256.
    const series = `panel_keyword_hits_total{account="${createHash('sha256').update('alice').digest('hex').slice(0, 12)}"}`;
    const before = value(await metrics(), series);
    telegram.pushIncoming(alice.id, DEALS, { text: 'a free gift today', senderName: 'Bob', senderUsername: 'bob' });
    telegram.pushIncoming(alice.id, DEALS, { text: 'nothing to see', senderName: 'Bob', senderUsername: 'bob' });
    await waitFor(async () => (await call<{ items: unknown[] }>('GET', '/api/keyword-hits?limit=10')).body.items.length === 1);
    const after = await metrics();
    expect(value(after, series) - before).toBe(1);
    expect(after).not.toContain('alice');
  });

  it('counts backups by kind and result', async () => {
    const before = await metrics();
    const download = await fetch(`${panel.url}/api/ops/backup/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const run = await panel.app.get(BackupService).runAutomaticBackup();
    expect(run.ok).toBe(true);
    let after = '';
    await waitFor(async () => {
      after = await metrics();
      return value(after, 'panel_backups_total{kind="manual",result="success"}') > value(before, 'panel_backups_total{kind="manual",result="success"}');
    });
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('panel_backups_total{kind="manual",result="success"}')).toBe(1);
    expect(delta('panel_backups_total{kind="auto",result="success"}')).toBe(1);
    expect(delta('panel_backups_total{kind="manual",result="failure"}') + delta('panel_backups_total{kind="auto",result="failure"}')).toBe(0);
  });

  it('reports the scheduler lock: held here, not held by a second instance on the same data', async () => {
    expect(value(await metrics(), 'panel_scheduler_lock_held')).toBe(1);
    const second = await startPanel({
      reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl },
      env: { APP_METRICS_TOKEN: METRICS_TOKEN },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    try {
      const scraped = await scrape(second.url, `Bearer ${METRICS_TOKEN}`);
      expect(value(scraped.text, 'panel_scheduler_lock_held')).toBe(0);
    } finally {
      await second.stop();
    }
  });

  it('reports the hits not yet in the search index: those recorded while the SQLite indexer waits, none on PostgreSQL', async () => {
    const indexer = panel.app.get(KeywordHitsFtsIndexer);
    await indexer.catchUp();
    indexer.pause();
    try {
      const hits = panel.app.get(KeywordHitsService);
      for (const messageId of [9001, 9002]) {
        await hits.record({
          accountName: 'alice',
          taskName: 'watch',
          chatId: DEALS,
          chatTitle: 'Deals',
          messageThreadId: null,
          senderId: '42',
          senderName: 'Ann',
          senderUsername: null,
          messageId,
          ruleIndex: 0,
          messageText: `backlog ${messageId}`,
          matchedKeyword: 'backlog',
          messageUrl: null,
          hitAt: new Date(),
          pushChannel: 'telegram',
        });
      }
      expect(value(await metrics(), 'panel_keyword_hits_search_backlog')).toBe(indexer.enabled ? 2 : 0);
    } finally {
      indexer.resume();
    }
    await indexer.catchUp();
    expect(value(await metrics(), 'panel_keyword_hits_search_backlog')).toBe(0);
  });

  it('passes promtool check metrics with every series filled', async () => {
    expect(promtoolCheckMetrics(await metrics())).toEqual({ status: 0, findings: [] });
  });
});

describe('panel-api /metrics without APP_METRICS_TOKEN', () => {
  it('is open, and clean for promtool', async () => {
    const panel = await startPanel();
    try {
      const scraped = await scrape(panel.url);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('panel_runs_total');
      expect(promtoolCheckMetrics(scraped.text)).toEqual({ status: 0, findings: [] });
    } finally {
      await panel.close();
    }
  });
});
