import { Logger } from '@nestjs/common';
import { freePort, generateGitHubAppKeyPair, LocalGitHubApi, requestJson } from '@shared/testing';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const PAT = 'ghp_external_reasons';

interface Refusal {
  error_code: string;
  message: string;
  details?: { reason?: string; retry_after_seconds?: number; request_id?: string };
}

/**
 * "Add external repository" never answers 500: each way the call to GitHub can fail has its own
 * status, code and details.reason, nothing is stored, and the cause is logged (issue 33 item 4).
 */
describe('POST /api/v1/repositories: the reasons an external repository cannot be added', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: 7, publicKey: keys.publicKey, personalAccessTokens: [PAT] });
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];
  const started: RunningMonitor[] = [];

  const start = async (env: Record<string, string>): Promise<{ monitor: RunningMonitor; session: AdminSession }> => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env } });
    started.push(monitor);
    return { monitor, session: await loginAdmin(monitor) };
  };
  const add = (target: { monitor: RunningMonitor; session: AdminSession }, fullName: string) =>
    requestJson<Refusal & { full_name?: string }>(target.monitor.url, '/api/v1/repositories', { method: 'POST', headers: adminHeaders(target.session), body: { full_name: fullName } });
  const access = (target: { monitor: RunningMonitor; session: AdminSession }) =>
    requestJson<{ token_configured: boolean; count: number; limit: number }>(target.monitor.url, '/api/v1/repositories/external', { headers: adminHeaders(target.session) });
  const externalCount = async (target: { monitor: RunningMonitor; session: AdminSession }) => (await access(target)).body.count;

  let withToken: { monitor: RunningMonitor; session: AdminSession };

  beforeAll(async () => {
    const original = Logger.prototype.warn;
    spies.push(
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(function (this: Logger, ...args: unknown[]) {
        logged.push(JSON.stringify(args));
        return (original as (...parameters: unknown[]) => void).apply(this, args);
      }),
    );
    await github.start();
    github.addRepository('outside/lib');
    withToken = await start({ MONITOR_VCS_API_URL: github.url, MONITOR_EXTERNAL_PAT: PAT });
  });
  afterAll(async () => {
    for (const monitor of started) await monitor.close();
    await github.close();
    for (const spy of spies) spy.mockRestore();
  });

  it('says the form cannot work without MONITOR_EXTERNAL_PAT, and refuses with reason no_token without asking GitHub', async () => {
    const withoutToken = await start({ MONITOR_VCS_API_URL: github.url });
    expect((await access(withoutToken)).body).toEqual({ token_configured: false, count: 0, limit: 20 });
    const before = github.requests.length;
    const answer = await add(withoutToken, 'outside/lib');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error_code: 'conflict', details: { reason: 'no_token' } });
    expect(answer.body.message).toMatch(/MONITOR_EXTERNAL_PAT/);
    expect(github.requests.length).toBe(before);
    expect(await externalCount(withoutToken)).toBe(0);
    expect((await access(withToken)).body).toEqual({ token_configured: true, count: 0, limit: 20 });
  });

  it('answers 404 with reason not_found for a repository GitHub does not have', async () => {
    const answer = await add(withToken, 'outside/missing');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error_code: 'not_found', details: { reason: 'not_found' } });
  });

  it('answers 429 with Retry-After when GitHub\u2019s rate limit is reached', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    github.failNext({ status: 403, message: 'API rate limit exceeded for user ID 1.', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }, path: /^\/repos\// });
    const answer = await add(withToken, 'outside/lib');
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ error_code: 'rate_limited', details: { reason: 'rate_limited' } });
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(121);
    expect(answer.body.details?.retry_after_seconds).toBe(retryAfter);
  });

  it('answers 409 with reason token_rejected when GitHub refuses the token', async () => {
    github.failNext({ status: 401, message: 'Bad credentials', path: /^\/repos\// });
    const answer = await add(withToken, 'outside/lib');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error_code: 'conflict', details: { reason: 'token_rejected' } });
    expect(answer.body.message).toMatch(/expired or revoked/);
  });

  it('answers 503 with reason github_error when GitHub answers with a server error', async () => {
    github.failNext({ status: 502, message: 'Server Error', path: /^\/repos\// });
    const answer = await add(withToken, 'outside/lib');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error_code: 'service_unavailable', details: { reason: 'github_error' } });
  });

  it('answers 503 with reason unreachable when nothing listens at the GitHub API URL, and logs the cause', async () => {
    const nothing = await start({ MONITOR_VCS_API_URL: `http://127.0.0.1:${await freePort()}`, MONITOR_EXTERNAL_PAT: PAT });
    logged.length = 0;
    const answer = await add(nothing, 'outside/lib');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error_code: 'service_unavailable', details: { reason: 'unreachable' } });
    expect(answer.body.message).not.toMatch(/ECONNREFUSED|internal error/);
    expect(logged.some((line) => line.includes('unreachable') && line.includes('ECONNREFUSED'))).toBe(true);
    expect(await externalCount(nothing)).toBe(0);
  });

  it('stored nothing for any refusal, and adds the repository once GitHub answers', async () => {
    expect(await externalCount(withToken)).toBe(0);
    const answer = await add(withToken, 'outside/lib');
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ full_name: 'outside/lib' });
    expect((await access(withToken)).body.count).toBe(1);
  });

  it('answers 401 without a session, and 400 to a malformed name', async () => {
    expect((await requestJson(withToken.monitor.url, '/api/v1/repositories/external')).status).toBe(401);
    expect((await add(withToken, 'not a name')).status).toBe(400);
  });
});
