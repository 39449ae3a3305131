import { LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';
import { INBOUND_SECRET, issueEvent, OUTBOUND_SECRET, sendDelivery } from './github-fixtures';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

async function scrape(url: string, token?: string): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
}

function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

describe('metrics with a token, and the about API', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;

  beforeAll(async () => {
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_METRICS_TOKEN: METRICS_TOKEN,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        APP_VERSION: '1.2.3',
        GIT_SHA: 'abc1234',
        // Nothing listens here: the check must fail softly.
        MONITOR_UPDATE_CHECK_URL: 'https://127.0.0.1:9/releases/latest',
      },
    });
    session = await loginAdmin(monitor);
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('needs the bearer token when MONITOR_METRICS_TOKEN is set', async () => {
    const anonymous = await scrape(monitor.url);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toMatchObject({ error_code: 'unauthorized' });
    expect((await scrape(monitor.url, `${METRICS_TOKEN}x`)).status).toBe(401);
    const withCookie = await fetch(`${monitor.url}/metrics`, { headers: { cookie: session.cookie } });
    expect(withCookie.status).toBe(401);
    const scraped = await scrape(monitor.url, METRICS_TOKEN);
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toContain('text/plain');
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
      'monitor_outbox_entries{state="pending"}',
      'monitor_open_work_items{kind="issue"}',
      'monitor_open_security_alerts',
      'monitor_failed_workflow_runs',
      'monitor_active_repositories',
      'monitor_reconcile_runs_total{result="succeeded"}',
    ]) {
      expect({ name, present: scraped.text.includes(name) }).toEqual({ name, present: true });
    }
  });

  it('counts webhook deliveries by result', async () => {
    const before = (await scrape(monitor.url, METRICS_TOKEN)).text;
    const accepted = await sendDelivery(monitor.url, 'ping', { zen: 'metrics' });
    expect(accepted.status).toBe(202);
    expect((await sendDelivery(monitor.url, 'ping', { zen: 'metrics' }, { deliveryId: accepted.deliveryId })).body).toMatchObject({ status: 'duplicate' });
    expect((await sendDelivery(monitor.url, 'ping', { zen: 'metrics' }, { secret: 'wrong-secret' })).status).toBe(401);
    expect((await sendDelivery(monitor.url, 'ping', { zen: 'metrics' }, { headers: { 'x-github-delivery': '' } })).status).toBe(400);
    const after = (await scrape(monitor.url, METRICS_TOKEN)).text;
    for (const result of ['accepted', 'duplicate', 'invalid_signature', 'failed']) {
      const series = `monitor_webhook_deliveries_total{result="${result}"}`;
      expect({ result, delta: (value(after, series) ?? 0) - (value(before, series) ?? 0) }).toEqual({ result, delta: 1 });
    }
  });

  it('reports the version and build data, 401 without a session', async () => {
    expect((await requestJson(monitor.url, '/api/v1/system/version')).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/system/version/check', { method: 'POST' })).status).toBe(401);
    const version = await requestJson(monitor.url, '/api/v1/system/version', { headers: adminHeaders(session) });
    expect(version.status).toBe(200);
    expect(version.body).toMatchObject({ version: '1.2.3', git_sha: 'abc1234', node_version: process.version, update_check_enabled: true });
  });

  it('fails the update check softly, caches the failure and refuses bad input', async () => {
    const first = await requestJson(monitor.url, '/api/v1/system/version/check', { method: 'POST', headers: adminHeaders(session) });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ enabled: true, ok: false, current_version: '1.2.3', latest_version: null, cached: false });
    expect(String(first.body['reason'])).toContain('update check failed');
    const cached = await requestJson(monitor.url, '/api/v1/system/version/check', { method: 'POST', headers: adminHeaders(session) });
    expect(cached.body).toMatchObject({ ok: false, cached: true });
    const forced = await requestJson(monitor.url, '/api/v1/system/version/check?force=true', { method: 'POST', headers: adminHeaders(session) });
    expect(forced.body).toMatchObject({ ok: false, cached: false });
    const bad = await requestJson(monitor.url, '/api/v1/system/version/check?force=maybe', { method: 'POST', headers: adminHeaders(session) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error_code: 'validation_failed' });
  });
});

describe('metrics without a token, metrics off, update check off', () => {
  it('serves /metrics openly without a token', async () => {
    const monitor = await startMonitor();
    try {
      const scraped = await scrape(monitor.url);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('monitor_webhook_deliveries_total');
    } finally {
      await monitor.close();
    }
  });

  it('answers 404 with MONITOR_METRICS_ENABLED=false and reports the check as off with MONITOR_UPDATE_CHECK=false', async () => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_METRICS_ENABLED: 'false', MONITOR_UPDATE_CHECK: 'false' } });
    try {
      const scraped = await scrape(monitor.url);
      expect(scraped.status).toBe(404);
      expect(JSON.parse(scraped.text)).toMatchObject({ error_code: 'not_found' });
      const session = await loginAdmin(monitor);
      const check = await requestJson(monitor.url, '/api/v1/system/version/check', { method: 'POST', headers: adminHeaders(session) });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ enabled: false, ok: false, latest_version: null });
    } finally {
      await monitor.close();
    }
  });
});

describe('outbox counters', () => {
  const receiver = new LocalWebhookReceiver();
  let monitor: RunningMonitor;

  beforeAll(async () => {
    await receiver.start();
    monitor = await startMonitor({
      env: {
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/hook'),
        MONITOR_HTTP_WEBHOOK_SECRET: OUTBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
        MONITOR_AGGREGATION_WINDOW: '0s',
      },
    });
  });

  afterAll(async () => {
    await monitor?.close();
    await receiver.close();
  });

  it('counts the transitions the worker makes (sending, sent, pending, dead) beside the current-state gauge', async () => {
    const series = (state: string) => `monitor_outbox_transitions_total{state="${state}"}`;
    const before = (await scrape(monitor.url)).text;
    for (const state of ['sending', 'sent', 'pending', 'dead']) expect({ state, value: value(before, series(state)) }).toEqual({ state, value: 0 });

    await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, { full_name: 'acme/counted', id: 71 }, 1, 'Counted once'));
    await waitFor(() => receiver.requestsTo('/hook').length === 1, 15_000);
    await waitFor(async () => value((await scrape(monitor.url)).text, series('sent')) === 1, 5_000);

    // A 4xx other than 408/429 is permanent: straight to dead.
    receiver.replyNext({ status: 410, body: 'gone' });
    await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, { full_name: 'acme/counted', id: 71 }, 2, 'Refused'));
    await waitFor(async () => value((await scrape(monitor.url)).text, series('dead')) === 1, 15_000);

    // A 5xx is retried later: back to pending.
    receiver.replyNext({ status: 503, body: 'busy' });
    await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, { full_name: 'acme/counted', id: 71 }, 3, 'Retried'));
    await waitFor(async () => value((await scrape(monitor.url)).text, series('pending')) === 1, 15_000);

    const after = (await scrape(monitor.url)).text;
    expect(value(after, series('sending'))).toBe(3);
    expect(value(after, series('sent'))).toBe(1);
    expect(value(after, 'monitor_outbox_entries{state="sent"}')).toBe(1);
    expect(value(after, 'monitor_outbox_entries{state="dead"}')).toBe(1);
    expect(value(after, 'monitor_outbox_entries{state="pending"}')).toBe(1);
  });
});
