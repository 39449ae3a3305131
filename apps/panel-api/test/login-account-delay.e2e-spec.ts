import { requestJson } from '@shared/testing';
import { request as httpRequest } from 'node:http';
import { authenticator } from 'otplib';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';

interface LoginAnswer {
  status: number;
  retryAfter: string | undefined;
  setCookie: string[];
  body: {
    statusCode?: number;
    error?: string;
    code?: string;
    message?: string;
    access_token?: string;
  };
}

/** POST /api/auth/login from the local address `from` (127.0.0.x: every one is a distinct client to the server). */
function loginFrom(panel: RunningPanel, from: string, body: object, headers: Record<string, string> = {}): Promise<LoginAnswer> {
  const url = new URL('/api/auth/login', panel.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            setCookie: response.headers['set-cookie'] ?? [],
            body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as LoginAnswer['body'],
          }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('login request timed out')));
    request.on('error', reject);
    request.end(payload);
  });
}

/** Waits until at least 12 s of the current 30 s step remain, so a code made now stays valid for the test. */
async function startOfTotpStep(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 18_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 250));
}

function cookieOf(answer: LoginAnswer): string {
  const cookie = answer.setCookie.map((line) => /^(panel_device=[^;]+)/.exec(line)?.[1]).find(Boolean);
  if (!cookie) throw new Error(`no known-device cookie (HTTP ${answer.status})`);
  return cookie;
}

describe('per-account login delay (guessing from many addresses)', () => {
  let panel: RunningPanel;

  beforeEach(async () => {
    panel = await startPanel();
  });

  afterEach(async () => {
    await panel?.close();
  });

  it('sets an HttpOnly, SameSite=Strict known-device cookie on a successful login only', async () => {
    const wrong = await loginFrom(panel, '127.0.0.2', {
      username: 'admin',
      password: 'not it',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.setCookie).toEqual([]);
    const right = await loginFrom(panel, '127.0.0.2', {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(right.status).toBe(200);
    expect(right.setCookie.join('\n')).toMatch(/^panel_device=[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
  });

  it('slows wrong passwords from 40 addresses after 5, and lets a known browser in meanwhile', async () => {
    const owner = cookieOf(
      await loginFrom(panel, '127.0.0.2', {
        username: 'admin',
        password: TEST_ADMIN_PASSWORD,
      }),
    );
    const answers: LoginAnswer[] = [];
    for (let host = 10; host < 50; host++)
      answers.push(
        await loginFrom(panel, `127.0.0.${host}`, {
          username: 'admin',
          password: `guess ${host}`,
        }),
      );
    const statuses = answers.map((answer) => answer.status);
    // No address failed more than once, so only the account delay can have refused them.
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((status) => status === 401).length).toBeLessThan(12);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(28);
    const refused = answers.find((answer) => answer.status === 429) as LoginAnswer;
    expect(refused.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'rate_limited',
    });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);

    // Keep guessing (waiting out each delay) until the account's wait has grown to several seconds,
    // so the checks below run well inside it however slow this machine is.
    const deadline = Date.now() + 45_000;
    let host = 100;
    for (;;) {
      const guess = await loginFrom(panel, `127.0.0.${host++}`, {
        username: 'admin',
        password: 'guess again',
      });
      if (guess.status === 429 && Number(guess.retryAfter) >= 4) break;
      if (Date.now() > deadline || host > 200) throw new Error('the account delay never grew to 4 s');
      if (guess.status === 429) await new Promise((resolve) => setTimeout(resolve, Number(guess.retryAfter) * 1000));
    }
    // The right password from a fresh address without the cookie waits too …
    expect(
      (
        await loginFrom(panel, '127.0.0.60', {
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
        })
      ).status,
    ).toBe(429);
    // … and so do a forged cookie and a token that is not one …
    const forged = `panel_device=${owner.slice('panel_device='.length).split('.')[0]}.AAAA`;
    expect((await loginFrom(panel, '127.0.0.62', { username: 'admin', password: TEST_ADMIN_PASSWORD }, { cookie: forged })).status).toBe(429);
    expect((await loginFrom(panel, '127.0.0.63', { username: 'admin', password: TEST_ADMIN_PASSWORD }, { authorization: 'Bearer not-a-token' })).status).toBe(429);
    // … while the owner's browser gets in, and so does a request that carries a live token of the admin.
    const token = (await loginFrom(panel, '127.0.0.61', { username: 'admin', password: TEST_ADMIN_PASSWORD }, { cookie: owner })).body.access_token;
    expect(token).toEqual(expect.any(String));
    expect((await loginFrom(panel, '127.0.0.64', { username: 'admin', password: TEST_ADMIN_PASSWORD }, { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('delays 40 addresses guessing the TOTP code with the right password, while the owner with the known-device cookie gets in', async () => {
    // The owner logs in once from their browser: the cookie is what exempts it later.
    const owner = cookieOf(
      await loginFrom(panel, '127.0.0.2', {
        username: 'admin',
        password: TEST_ADMIN_PASSWORD,
      }),
    );
    const token = await loginAsAdmin(panel);
    const setup = await requestJson<{ secret: string }>(panel.url, '/api/auth/totp/setup', {
      method: 'POST',
      token,
      body: { current_password: TEST_ADMIN_PASSWORD },
    });
    await startOfTotpStep();
    const enabledAt = Date.now();
    const enabled = await requestJson(panel.url, '/api/auth/totp/enable', {
      method: 'POST',
      token,
      body: {
        code: authenticator.clone({ epoch: enabledAt }).generate(setup.body.secret),
        current_password: TEST_ADMIN_PASSWORD,
      },
    });
    expect(enabled.status).toBe(200);

    // 40 addresses, the right password, each a different wrong code, all at once.
    const wrongCodes = Array.from({ length: 40 }, (_, index) => String(100_000 + index * 7919));
    const answers = await Promise.all(
      wrongCodes.map((code, index) =>
        loginFrom(panel, `127.0.0.${10 + index}`, {
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
          totp_code: code,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    // At most the password check's free slots ran; everything else had to wait.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(35);
    const refused = answers.find((answer) => answer.status === 429) as LoginAnswer;
    expect(refused.body).toMatchObject({
      statusCode: 429,
      code: 'rate_limited',
    });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);

    // Guesses after the burst wait on the stricter TOTP delay (2 free wrong codes, then 5 s and up).
    // How many of the burst's codes were checked depends on how its requests interleaved (most lose
    // the race for the account's slot), so a few more come one at a time: the third at the latest waits.
    let later: LoginAnswer | undefined;
    for (let guess = 0; guess < 3 && later?.status !== 429; guess++) {
      later = await loginFrom(panel, `127.0.0.${120 + guess}`, {
        username: 'admin',
        password: TEST_ADMIN_PASSWORD,
        totp_code: '000000',
      });
      expect([401, 429]).toContain(later.status);
    }
    if (!later) throw new Error('no guess was made');
    expect(later.status).toBe(429);
    expect(Number(later.retryAfter)).toBeGreaterThanOrEqual(1);

    // The owner, with the cookie and the next step's code (valid for the next minute), logs in.
    const code = authenticator.clone({ epoch: enabledAt + 30_000 }).generate(setup.body.secret);
    const back = await loginFrom(panel, '127.0.0.91', { username: 'admin', password: TEST_ADMIN_PASSWORD, totp_code: code }, { cookie: owner });
    expect(back.status).toBe(200);
    // Still slowed for everyone else.
    expect(
      (
        await loginFrom(panel, '127.0.0.93', {
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
          totp_code: '000000',
        })
      ).status,
    ).toBe(429);
  });
});
