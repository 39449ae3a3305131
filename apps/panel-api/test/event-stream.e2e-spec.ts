import { requestJson } from '@shared/testing';
import http, { IncomingMessage } from 'node:http';
import { DataSource } from 'typeorm';
import { RunHistoryService } from '../src/app/runs/run-history.service';
import { DEFAULT_RUN_TIMINGS, RUN_TIMINGS } from '../src/app/runs/run-timings';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';

/** An open SSE connection that collects everything the server sends until it ends the stream. */
interface OpenStream {
  status: number;
  text: () => string;
  /** Resolves with the time the server ended the stream. */
  ended: Promise<number>;
  /** Resolves once the collected text satisfies `predicate`. */
  until: (predicate: (text: string) => boolean, timeoutMs?: number) => Promise<void>;
  abort: () => void;
}

async function openStream(url: string, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events/sign-history?token=${encodeURIComponent(token)}`, { signal: controller.signal });
  let text = '';
  const waiters: Array<() => void> = [];
  const ended = (async () => {
    if (!response.body) return Date.now();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // aborted by the test
    }
    for (const wake of waiters.splice(0)) wake();
    return Date.now();
  })();
  let done = false;
  void ended.then(() => (done = true));
  return {
    status: response.status,
    text: () => text,
    ended,
    until: async (predicate, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(text)) {
        if (done) throw new Error(`stream ended before the condition: ${text}`);
        if (Date.now() > deadline) throw new Error(`condition not met in time: ${text}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    abort: () => controller.abort(),
  };
}

const streamStatus = async (panel: RunningPanel, token: string): Promise<{ clients: number; clients_dropped_lagging: number }> =>
  (await requestJson<{ components: Record<string, { details: { clients: number; clients_dropped_lagging: number } }> }>(panel.url, '/api/ops/runtime-status', { token }))
    .body.components['sign_history_stream'].details;

const clientsOf = async (panel: RunningPanel, token: string): Promise<number> => (await streamStatus(panel, token)).clients;

/** A stream whose reader stopped reading: the paused response stops reading its socket, whose buffers fill up. */
async function openPausedStream(url: string, token: string): Promise<{ resume: () => Promise<string> }> {
  const response = await new Promise<IncomingMessage>((resolve) => http.get(`${url}/api/events/sign-history?token=${encodeURIComponent(token)}`, resolve));
  expect(response.statusCode).toBe(200);
  response.pause();
  return {
    resume: async () => {
      let text = '';
      response.setEncoding('utf8');
      for await (const chunk of response) text += chunk as string;
      return text;
    },
  };
}

/** Event ids in the order a client received them. */
const idsIn = (text: string): string[] => [...text.matchAll(/^id: (\S+)$/gm)].map((match) => match[1]);

describe('panel-api live event stream: revocation and the per-token cap (issue 19 item 3)', () => {
  let panel: RunningPanel;

  beforeAll(async () => {
    // A long keep-alive beat: a stream must close on revocation without waiting for the periodic check.
    panel = await startPanel({
      env: { APP_EVENTS_MAX_STREAMS_PER_TOKEN: '3' },
      overrides: [{ provide: RUN_TIMINGS, useValue: { ...DEFAULT_RUN_TIMINGS, sseKeepAliveMs: 60_000 } }],
    });
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('closes every stream of a token the moment a password change revokes it, and refuses the token afterwards', async () => {
    const token = await loginAsAdmin(panel);
    const streams = [await openStream(panel.url, token), await openStream(panel.url, token)];
    for (const stream of streams) {
      expect(stream.status).toBe(200);
      await stream.until((text) => text.includes('event: ready'));
    }
    // Events still flow before the change.
    panel.app.get(RunHistoryService).publish({
      run_id: 'r1',
      account_name: 'alice',
      task_name: 'daily',
      success: true,
      message: 'ok',
      created_at: new Date().toISOString(),
      failure_category: 'none',
    });
    for (const stream of streams) await stream.until((text) => text.includes('event: sign_log'));

    const change = await requestJson<{ access_token: string }>(panel.url, '/api/auth/password', {
      method: 'PUT',
      token,
      body: { current_password: TEST_ADMIN_PASSWORD, new_password: 'another good password' },
    });
    // Hashing the new password takes most of the request (seconds on a loaded machine); the streams
    // close when the new token_version is saved, just before the answer, not on a later timer beat.
    const answeredAt = Date.now();
    expect(change.status).toBe(200);
    const endedAt = await Promise.all(streams.map((stream) => stream.ended));
    for (const stream of streams) expect(stream.text()).toMatch(/event: close\ndata: \{"reason":"token_revoked"\}\n\n$/);
    const again = await fetch(`${panel.url}/api/events/sign-history?token=${token}`);
    expect(again.status).toBe(401);
    await again.body?.cancel();

    // The new token streams; restore the password for the next test.
    const fresh = change.body.access_token;
    const stream = await openStream(panel.url, fresh);
    await stream.until((text) => text.includes('event: ready'));
    const restore = await requestJson<{ access_token: string }>(panel.url, '/api/auth/password', {
      method: 'PUT',
      token: fresh,
      body: { current_password: 'another good password', new_password: TEST_ADMIN_PASSWORD },
    });
    expect(restore.status).toBe(200);
    await stream.ended;
    expect(stream.text()).toContain('"reason":"token_revoked"');
    expect(await clientsOf(panel, restore.body.access_token)).toBe(0);
    for (const at of endedAt) expect(at - answeredAt).toBeLessThan(1_000);
  });

  it('closes a stream when its token is revoked behind the repository (raw SQL), on the next check', async () => {
    // A second panel with a short beat: the periodic check is the backstop for changes TokenRevocations cannot see.
    const quick = await startPanel({ overrides: [{ provide: RUN_TIMINGS, useValue: { ...DEFAULT_RUN_TIMINGS, sseKeepAliveMs: 200 } }] });
    try {
      const token = await loginAsAdmin(quick);
      const stream = await openStream(quick.url, token);
      await stream.until((text) => text.includes('event: ready'));
      await quick.app.get(DataSource).query(`UPDATE "admin_users" SET "token_version" = "token_version" + 1`);
      await stream.ended;
      expect(stream.text()).toContain('event: close\ndata: {"reason":"token_revoked"}');
    } finally {
      await quick.close();
    }
  });

  it('holds at most APP_EVENTS_MAX_STREAMS_PER_TOKEN streams per token: one more is 429 in the error shape, a closed one frees its place', async () => {
    const token = await loginAsAdmin(panel);
    // Tokens issued in the same second are byte-for-byte the same token.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const other = await loginAsAdmin(panel);
    expect(other).not.toBe(token);
    const streams: OpenStream[] = [];
    for (let i = 0; i < 3; i += 1) {
      const stream = await openStream(panel.url, token);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const refused = await fetch(`${panel.url}/api/events/sign-history?token=${token}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringContaining('APP_EVENTS_MAX_STREAMS_PER_TOKEN'),
      code: 'rate_limited',
    });
    // Another token (another browser) is not affected.
    const elsewhere = await openStream(panel.url, other);
    expect(elsewhere.status).toBe(200);
    expect(await clientsOf(panel, token)).toBe(4);

    streams[0].abort();
    await streams[0].ended;
    const deadline = Date.now() + 3_000;
    let reopened: OpenStream | undefined;
    while (!reopened) {
      const attempt = await fetch(`${panel.url}/api/events/sign-history?token=${token}`);
      if (attempt.status === 200) {
        await attempt.body?.cancel();
        reopened = { status: 200 } as OpenStream;
        break;
      }
      await attempt.body?.cancel();
      if (Date.now() > deadline) throw new Error(`a closed stream did not free its place (${attempt.status})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const stream of [...streams.slice(1), elsewhere]) stream.abort();
  });

  it('keeps every other client current while one stops reading, and ends that one with event: close {reason: lagging} once 1 MiB waits for it', async () => {
    let token = await loginAsAdmin(panel);
    // Earlier tests' streams (possibly of this very token: same second, same token) must be gone first.
    const deadline = Date.now() + 5_000;
    while ((await clientsOf(panel, token)) > 0) {
      if (Date.now() > deadline) throw new Error('streams of earlier tests are still open');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    token = await loginAsAdmin(panel);
    const droppedBefore = (await streamStatus(panel, token)).clients_dropped_lagging;
    const reading = await openStream(panel.url, token);
    await reading.until((text) => text.includes('event: ready'));
    const stalled = await openPausedStream(panel.url, token);
    expect(await clientsOf(panel, token)).toBe(2);

    const history = panel.app.get(RunHistoryService);
    const perTurn = 200;
    const message = 'm'.repeat(2_000);
    let turns = 0;
    // Each turn of 200 events (about 440 KB) reaches the reading client before the next is published,
    // while the stalled one backs up: past the kernel's socket buffers (a few MB), then past 1 MiB.
    while ((await streamStatus(panel, token)).clients_dropped_lagging === droppedBefore) {
      if (turns === 100) throw new Error('the stalled client was never dropped');
      for (let i = 0; i < perTurn; i += 1) {
        history.publish({ run_id: `t${turns}-${i}`, account_name: 'alice', task_name: 'daily', success: true, message, created_at: new Date().toISOString(), failure_category: 'none' });
      }
      const last = `id: t${turns}-${perTurn - 1}\n`;
      await reading.until((text) => text.includes(last), 15_000);
      turns += 1;
    }
    expect(turns).toBeGreaterThan(2);
    expect(await clientsOf(panel, token)).toBe(1);
    const expected = Array.from({ length: turns * perTurn }, (_, n) => `t${Math.floor(n / perTurn)}-${n % perTurn}`);
    expect(idsIn(reading.text())).toEqual(expected);

    // Reading again, the dropped client gets the events it had been sent, in order, then the close event and the end.
    const stalledText = await stalled.resume();
    const stalledIds = idsIn(stalledText);
    expect(stalledIds.length).toBeLessThan(expected.length);
    expect(stalledIds).toEqual(expected.slice(0, stalledIds.length));
    expect(stalledText.endsWith('event: close\ndata: {"reason":"lagging"}\n\n')).toBe(true);
    reading.abort();
    await reading.ended;
  }, 60_000);
});
