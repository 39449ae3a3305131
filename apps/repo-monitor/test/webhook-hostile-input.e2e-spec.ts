import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { SIGNATURE_FAILURE_LIMIT } from '../src/app/webhooks/signature-failure-limiter';
import { RunningMonitor, startMonitor } from './harness';
import { INBOUND_SECRET, sendDelivery } from './github-fixtures';

/**
 * Sends `count` unsigned bodies of just under 1 MiB of nested arrays (expensive to parse) in parallel
 * from a separate process, so the event loop measured here is the server's alone; answers the statuses.
 */
async function sendNestedArraysFromAnotherProcess(url: string, count: number): Promise<number[]> {
  const script = `
    const block = '[[[[[[[[[[[[]]]]]]]]]]]],';
    const body = '[' + block.repeat(Math.floor((1024 * 1024 - 16) / block.length)) + '[]]';
    Promise.all(Array.from({ length: ${count} }, (_, i) => fetch(process.argv[1], {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': 'nested-' + i, 'x-hub-signature-256': 'sha256=00' },
      body,
    }).then((response) => response.status))).then((statuses) => process.stdout.write(JSON.stringify(statuses)));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, `${url}/webhooks/github`]);
  return JSON.parse(stdout) as number[];
}

async function metricValue(url: string, sample: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${sample} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

describe('inbound webhooks against hostile input', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET } });
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('checks the signature before parsing: a body that is not JSON is 401 unsigned and 400 only once signed', async () => {
    // The order is what keeps hostile bodies cheap: an unsigned body is refused for its signature
    // before anyone parses it, so a body that would fail parsing still answers 401, and only a
    // correctly signed one reaches the parser (and its 400). How little the refused bodies cost the
    // event loop is a speed figure, measured by tools/bench (not asserted in a timed test).
    const notJson = '{"action": "opened", "issue": [[[[';
    const unsigned = await sendDelivery(monitor.url, 'issues', undefined, { rawBody: notJson, secret: 'not-the-secret' });
    expect(unsigned.status).toBe(401);
    const signed = await sendDelivery(monitor.url, 'issues', undefined, { rawBody: notJson });
    expect(signed.status).toBe(400);
  });

  it('answers 10 parallel unsigned 1 MiB nested-array bodies with 401 and stays healthy', async () => {
    const statuses = await sendNestedArraysFromAnotherProcess(monitor.url, 10);
    expect(statuses).toEqual(Array(10).fill(401));
    expect((await fetch(`${monitor.url}/healthz`)).status).toBe(200);
  });

  it('stores a signed body with __proto__ and constructor keys as sent, and it round-trips', async () => {
    const text = '{"zen":"proto","__proto__":{"polluted":"yes","hook_id":1},"constructor":{"prototype":{"polluted":"yes"}},"hook_id":42}';
    const delivery = await sendDelivery(monitor.url, 'ping', undefined, { rawBody: text });
    expect(delivery.status).toBe(202);
    const rows = (await monitor.app.get(DataSource).query(`SELECT "payload" FROM "webhook_deliveries" WHERE "delivery_id" = '${delivery.deliveryId}'`)) as Array<{
      payload: string;
    }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toBe(text);
    expect(JSON.stringify(JSON.parse(rows[0]?.payload ?? ''))).toBe(text);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // The same body as a form delivery.
    const form = await sendDelivery(monitor.url, 'ping', undefined, {
      rawBody: `payload=${encodeURIComponent(text)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(202);
  });

  it('answers 429 with Retry-After after a burst of bad signatures from one address, counts it, and still accepts signed deliveries', async () => {
    const before = await metricValue(monitor.url, 'monitor_webhook_deliveries_total{result="rate_limited"}');
    const answers: number[] = [];
    for (let i = 0; i < SIGNATURE_FAILURE_LIMIT + 4; i++) {
      answers.push((await sendDelivery(monitor.url, 'ping', { zen: i }, { secret: 'wrong-secret' })).status);
    }
    // The first two tests already spent 11 of the address's budget (one unsigned body, ten nested ones).
    expect(answers.filter((status) => status === 401)).toHaveLength(SIGNATURE_FAILURE_LIMIT - 11);
    expect(answers.slice(-5)).toEqual(Array(5).fill(429));
    const limited = await sendDelivery(monitor.url, 'ping', { zen: 'again' }, { secret: 'wrong-secret' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error_code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await metricValue(monitor.url, 'monitor_webhook_deliveries_total{result="rate_limited"}')).toBe(before + 16);

    const signed = await sendDelivery(monitor.url, 'ping', { zen: 'still welcome' });
    expect(signed.status).toBe(202);
    const bodyText = JSON.stringify({ zen: 'form' });
    const formBody = `payload=${encodeURIComponent(bodyText)}`;
    const viaForm = await fetch(`${monitor.url}/webhooks/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'projects_v2_status_update',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${createHmac('sha256', INBOUND_SECRET).update(formBody).digest('hex')}`,
      },
      body: formBody,
    });
    expect(viaForm.status).toBe(202);
  });

  it('still parses JSON and forms on the other routes (and refuses bad JSON there with 400)', async () => {
    const badJson = await fetch(`${monitor.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error_code: 'validation_failed' });
    const form = await fetch(`${monitor.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=x&client_secret=y',
    });
    // Parsed: the endpoint read the grant and the client (no secret configured here).
    expect([400, 401]).toContain(form.status);
    expect(((await form.json()) as { error: string }).error).toMatch(/invalid_client|unauthorized_client|invalid_request/);
  });
});
