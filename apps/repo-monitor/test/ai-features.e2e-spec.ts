import {
  chatMessageText,
  ChatCompletionRequestBody,
  generateGitHubAppKeyPair,
  LocalGitHubApi,
  LocalOpenAiServer,
  LocalTelegramBotApi,
  LocalWebhookReceiver,
  requestJson,
  tempDir,
  waitFor,
} from '@shared/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AiGitHubSource } from '../src/app/ai/ai-github-source';
import { DigestService } from '../src/app/ai/digest.service';
import { PrReviewService } from '../src/app/ai/pr-review.service';
import { GitHubSyncService } from '../src/app/github/github-sync.service';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';
import { INBOUND_SECRET, installationCreated, OUTBOUND_SECRET, repositoryPayload, sendDelivery } from './github-fixtures';

const APP_ID = 5151;
const INSTALLATION_ID = 91;
const CHAT_ID = '4242';
const AI_KEY = 'sk-local-test-key';
const PAT = 'ghp_local_external_pat';
const AI_TIMEOUT_MS = 2000;

type Feature = 'triage' | 'diagnosis' | 'review' | 'digest' | 'release' | 'test';

function featureOf(request: ChatCompletionRequestBody): Feature {
  const text = request.messages.map((message) => chatMessageText(message)).join('\n');
  if (text.includes('connectivity test')) return 'test';
  if (text.includes('triage security alerts')) return 'triage';
  if (text.includes('diagnose failed CI')) return 'diagnosis';
  if (text.includes('review pull requests')) return 'review';
  if (text.includes('Summarise this release')) return 'release';
  return 'digest';
}

interface ReviewBody {
  id: number;
  status: string;
  score: number | null;
  merge_risk: string | null;
  security_risks: string[];
  breaking_risks: string[];
  suggestions: string[];
  missing_tests: string[];
  head_sha: string;
  diff_truncated: boolean;
  alerted: boolean;
  comment_id: number | null;
  error_code: string | null;
  summary: string | null;
}

describe('AI features against a local OpenAI-compatible server', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey, personalAccessTokens: [PAT] });
  const openai = new LocalOpenAiServer({ apiKey: AI_KEY });
  const telegram = new LocalTelegramBotApi();
  const receiver = new LocalWebhookReceiver();
  const keyDir = tempDir('monitor-ai-key-');
  let reviewReply = '';
  let monitor: RunningMonitor;
  let session: AdminSession;
  let repositoryId = 0;

  const completionsFor = (feature: Feature) => openai.completions.filter((request) => featureOf(request) === feature);
  const messagesContaining = (text: string) => telegram.messages.filter((message) => message.text.includes(text));
  const setAi = (changes: Record<string, unknown>) => requestJson(monitor.url, '/api/v1/ai/config', { method: 'PUT', headers: adminHeaders(session), body: changes });
  const reviews = async (query = '') =>
    (await requestJson<{ items: ReviewBody[]; total: number }>(monitor.url, `/api/v1/ai/reviews${query}`, { headers: adminHeaders(session) })).body;

  beforeAll(async () => {
    await Promise.all([github.start(), openai.start(), telegram.start(), receiver.start()]);
    openai.setReply((request) => {
      switch (featureOf(request)) {
        case 'test':
          return 'pong';
        case 'triage':
          return 'Urgent: the vulnerable lodash is reachable from the API; upgrade to 4.17.21.';
        case 'diagnosis':
          return 'The unit test expected 2 but got 3 after the rounding change; fix the rounding in price.ts.';
        case 'review':
          return reviewReply;
        case 'release':
          return 'Version 2.0 drops Node 18 and adds streaming.';
        default:
          return 'All calm: one security alert needs a look.';
      }
    });
    const keyPath = join(keyDir.path, 'app.pem');
    writeFileSync(keyPath, keys.privateKey);
    github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: ['acme/api'] });
    github.addRepository('vendor/lib');
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_APP_ID: String(APP_ID),
        MONITOR_VCS_PRIVATE_KEY_PATH: keyPath,
        MONITOR_VCS_API_URL: github.url,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_EXTERNAL_PAT: PAT,
        MONITOR_BOT_TOKEN: telegram.token,
        MONITOR_BOT_CHAT_ID: CHAT_ID,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/hook'),
        MONITOR_HTTP_WEBHOOK_SECRET: OUTBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
        MONITOR_AI_API_KEY: AI_KEY,
        MONITOR_AI_BASE_URL: openai.baseUrl,
        MONITOR_AI_TIMEOUT: `${AI_TIMEOUT_MS}ms`,
      },
    });
    session = await loginAdmin(monitor);
    expect((await setAi({ enabled: true })).status).toBe(200);
    const installed = await sendDelivery(
      monitor.url,
      'installation',
      installationCreated(INSTALLATION_ID, 'acme', [{ full_name: 'acme/api', id: Number(github.repositories.get('acme/api')?.id) }]),
    );
    expect(installed.status).toBe(202);
    await waitFor(async () => {
      const list = await requestJson<{ items: Array<{ id: number; full_name: string }> }>(monitor.url, '/api/v1/repositories', { headers: adminHeaders(session) });
      repositoryId = list.body.items.find((repository) => repository.full_name === 'acme/api')?.id ?? 0;
      return repositoryId > 0;
    }, 15_000);
  });

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([github.close(), openai.close(), telegram.close(), receiver.close()]);
    keyDir.remove();
  });

  it('answers 401 without a session and 400 on bad input on every AI route', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/ai/test'],
      ['GET', '/api/v1/ai/reviews'],
      ['GET', '/api/v1/ai/reviews/1'],
      ['GET', '/api/v1/ai/review-settings'],
      ['PUT', '/api/v1/ai/review-settings'],
      ['GET', '/api/v1/digests'],
      ['POST', '/api/v1/digests'],
    ] as const) {
      expect({ path, method, status: (await requestJson(monitor.url, path, { method, body: method === 'GET' ? undefined : {} })).status }).toEqual({ path, method, status: 401 });
    }
    const headers = adminHeaders(session);
    for (const [method, path, body] of [
      ['POST', '/api/v1/ai/test', { max_tokens: 'many' }],
      ['POST', '/api/v1/ai/test', { timeout: 'soon' }],
      ['POST', '/api/v1/ai/test', { unknown_field: 1 }],
      ['GET', '/api/v1/ai/reviews?per_page=500', undefined],
      ['GET', '/api/v1/ai/reviews/abc', undefined],
      ['PUT', '/api/v1/ai/review-settings', { post_comment: 'yes' }],
      ['GET', '/api/v1/digests?period=hourly', undefined],
      ['POST', '/api/v1/digests', { period: 'hourly' }],
    ] as const) {
      const response = await requestJson(monitor.url, path, { method, headers, body });
      expect({ path, status: response.status, code: (response.body as Record<string, unknown>)['error_code'] }).toEqual({ path, status: 400, code: 'validation_failed' });
    }
    expect((await requestJson(monitor.url, '/api/v1/ai/reviews/999999', { headers })).status).toBe(404);
  });

  it('tests connectivity with one fixed message and unsaved values, writing nothing', async () => {
    const headers = adminHeaders(session);
    const auditBefore = (await requestJson<{ total: number }>(monitor.url, '/api/v1/audit-log', { headers })).body.total;
    const configBefore = (await requestJson(monitor.url, '/api/v1/ai/config', { headers })).body;
    const before = openai.completions.length;

    const ok = await requestJson<Record<string, unknown>>(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: { model: 'scratch-model', max_tokens: 32 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, reply: 'pong', model: 'scratch-model', base_url: openai.baseUrl });
    expect(typeof ok.body['elapsed_ms']).toBe('number');
    const sent = openai.completions[before];
    expect(sent).toMatchObject({ model: 'scratch-model', max_tokens: 32 });
    expect(sent.messages.map((message) => chatMessageText(message))).toEqual(['This is a connectivity test.', 'Reply with the single word: pong']);

    const locked = await requestJson(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: { base_url: 'http://127.0.0.1:1/v1' } });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({ error_code: 'ai_field_locked', details: { field: 'base_url' } });

    const wrongKey = await requestJson(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: { api_key: 'sk-wrong' } });
    expect(wrongKey.status).toBe(409);

    openai.failNext({ kind: 'status', status: 500 }, { kind: 'status', status: 502 });
    const serverError = await requestJson(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: {} });
    expect(serverError.body).toMatchObject({ ok: false, error_code: 'server_error' });

    openai.failNext({ kind: 'malformed' });
    const malformed = await requestJson(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: { retries: 0 } });
    expect(malformed.body).toMatchObject({ ok: false, error_code: 'malformed_response', kind: 'bad_response' });

    expect((await requestJson<{ total: number }>(monitor.url, '/api/v1/audit-log', { headers })).body.total).toBe(auditBefore);
    expect((await requestJson(monitor.url, '/api/v1/ai/config', { headers })).body).toEqual(configBefore);
    const metrics = await (await fetch(`${monitor.url}/metrics`)).text();
    expect(metrics).not.toMatch(/monitor_ai_requests_total\{feature="(other|test)"\}/);
  });

  it('answers a failed test with its kind and the upstream status, never the endpoint\u2019s body', async () => {
    const headers = adminHeaders(session);
    const MARKER = 'upstream-body-marker-<b>5e1c</b>';
    const test = async () => {
      const answer = await requestJson<Record<string, unknown>>(monitor.url, '/api/v1/ai/test', { method: 'POST', headers, body: { retries: 0 } });
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain('5e1c');
      return answer.body;
    };
    for (const [status, kind, code] of [
      [401, 'unauthorized', 'auth_failed'],
      [429, 'rate_limited', 'rate_limited'],
      [500, 'bad_response', 'server_error'],
    ] as const) {
      openai.failNext({ kind: 'status', status, message: MARKER, code: MARKER, type: MARKER });
      expect(await test()).toMatchObject({ ok: false, kind, upstream_status: status, error_code: code, message: expect.stringContaining(`(HTTP ${status})`) });
    }
    openai.failNext({ kind: 'delay', ms: AI_TIMEOUT_MS * 3 });
    expect(await test()).toMatchObject({ ok: false, kind: 'timeout', upstream_status: null, message: `no answer within ${AI_TIMEOUT_MS} ms` });
  });

  it('triages a security alert before sending it, once for both channels', async () => {
    const before = completionsFor('triage').length;
    const alert = await sendDelivery(monitor.url, 'dependabot_alert', dependabotAlert('created', 1, 'Prototype pollution in lodash'));
    expect(alert.status).toBe(202);
    await waitFor(() => messagesContaining('Dependabot alert #1').length === 1 && receiver.requestsTo('/hook').some((hit) => hit.bodyText.includes('Dependabot alert #1')), 15_000);
    const message = messagesContaining('Dependabot alert #1')[0];
    expect(message.text).toContain('AI triage');
    expect(message.text).toContain('upgrade to 4.17.21');
    const hook = JSON.parse(receiver.requestsTo('/hook').find((hit) => hit.bodyText.includes('Dependabot alert #1'))?.bodyText ?? '{}') as { body_plain: string; event: { ai?: { triage?: string } } };
    expect(hook.body_plain).toContain('upgrade to 4.17.21');
    expect(hook.event.ai?.triage).toContain('upgrade to 4.17.21');
    expect(completionsFor('triage').length - before).toBe(1);
    expect(chatMessageText(completionsFor('triage')[before].messages[1])).toContain('Prototype pollution in lodash');
  });

  it('sends the original alert with its link when triage times out, within the timeout', async () => {
    openai.failNext({ kind: 'delay', ms: AI_TIMEOUT_MS * 3 });
    const started = Date.now();
    expect((await sendDelivery(monitor.url, 'dependabot_alert', dependabotAlert('created', 2, 'ReDoS in minimatch'))).status).toBe(202);
    await waitFor(() => messagesContaining('Dependabot alert #2').length === 1, 15_000);
    const waited = Date.now() - started;
    const message = messagesContaining('Dependabot alert #2')[0];
    expect(message.text).toContain('ReDoS in minimatch');
    expect(message.text).not.toContain('AI triage');
    expect(message.replyMarkup).toEqual({ inline_keyboard: [[{ text: 'View on GitHub', url: 'https://github.com/acme/api/security/dependabot/2' }]] });
    expect(waited).toBeGreaterThanOrEqual(AI_TIMEOUT_MS - 100);
    expect(waited).toBeLessThan(AI_TIMEOUT_MS * 3);
  });

  it('sends the original alert on 5xx (after the retry) and on a malformed answer', async () => {
    openai.failNext({ kind: 'status', status: 503 }, { kind: 'status', status: 500 });
    expect((await sendDelivery(monitor.url, 'dependabot_alert', dependabotAlert('created', 3, 'Path traversal in tar'))).status).toBe(202);
    await waitFor(() => messagesContaining('Dependabot alert #3').length === 1, 15_000);
    expect(messagesContaining('Dependabot alert #3')[0].text).not.toContain('AI triage');

    openai.failNext({ kind: 'malformed' });
    expect((await sendDelivery(monitor.url, 'dependabot_alert', dependabotAlert('created', 4, 'XSS in marked'))).status).toBe(202);
    await waitFor(() => messagesContaining('Dependabot alert #4').length === 1, 15_000);
    expect(messagesContaining('Dependabot alert #4')[0].text).not.toContain('AI triage');
    const metrics = await (await fetch(`${monitor.url}/metrics`)).text();
    expect(metrics).toMatch(/monitor_ai_failures_total\{feature="triage",code="timeout"\} [1-9]/);
    expect(metrics).toMatch(/monitor_ai_failures_total\{feature="triage",code="server_error"\} [1-9]/);
    expect(metrics).toMatch(/monitor_ai_tokens_total\{feature="triage",kind="prompt"\} [1-9]/);
    expect(metrics).toMatch(/monitor_reconcile_runs_total\{result="succeeded"\} [1-9]/);
    expect(metrics).toMatch(/monitor_open_security_alerts [1-9]/);
    expect(metrics).toMatch(/monitor_active_repositories 1\n/);
    expect(metrics).toMatch(/monitor_outbox_entries\{state="sent"\} [1-9]/);
  });

  it('appends a diagnosis from the failed job log to the run notification, independent of triage', async () => {
    expect((await setAi({ triage_enabled: false })).status).toBe(200);
    const runId = 7001;
    github.setWorkflowJobs('acme/api', runId, [
      { id: 88001, name: 'lint', conclusion: 'success', log: 'all good' },
      { id: 88002, name: 'unit tests', conclusion: 'failure', log: `${'setup line\n'.repeat(2000)}FAIL price.spec.ts\n  expected 2, received 3\n` },
    ]);
    expect((await sendDelivery(monitor.url, 'workflow_run', workflowRun(runId, 'failure'))).status).toBe(202);
    await waitFor(() => messagesContaining('Workflow CI failed').length === 1, 15_000);
    const message = messagesContaining('Workflow CI failed')[0];
    expect(message.text).toContain('AI diagnosis');
    expect(message.text).toContain('fix the rounding in price.ts');
    const prompt = chatMessageText(completionsFor('diagnosis').at(-1)?.messages[1]);
    expect(prompt).toContain('Job: unit tests');
    expect(prompt).toContain('expected 2, received 3');
    expect(prompt.length).toBeLessThan(7000);

    const triageBefore = completionsFor('triage').length;
    expect((await sendDelivery(monitor.url, 'dependabot_alert', dependabotAlert('created', 5, 'Triage is off'))).status).toBe(202);
    await waitFor(() => messagesContaining('Dependabot alert #5').length === 1, 15_000);
    expect(messagesContaining('Dependabot alert #5')[0].text).not.toContain('AI triage');
    expect(completionsFor('triage').length).toBe(triageBefore);
    expect((await setAi({ triage_enabled: true })).status).toBe(200);
  });

  it('reviews a PR once per head SHA, stores the result, alerts and keeps one comment updated in place', async () => {
    const headers = adminHeaders(session);
    expect((await requestJson(monitor.url, '/api/v1/ai/review-settings', { method: 'PUT', headers, body: { post_comment: true } })).body).toEqual({ post_comment: true });
    const bigDiff = `diff --git a/src/db.ts b/src/db.ts\n${'+ const query = "SELECT * FROM users WHERE id = " + id;\n'.repeat(400)}`;
    github.setPullRequest('acme/api', 12, { title: 'Add user lookup', headSha: 'a'.repeat(40), diff: bigDiff });
    reviewReply = JSON.stringify({
      // Model text an outside contributor could steer: a foreign link, a mention, raw HTML, and a link into the repository.
      summary: `Adds a user lookup built from string concatenation. Fix: https://evil.example/patch <img src=x> cc @maintainer; see ${github.url}/acme/api/pull/12/files`,
      score: 35,
      merge_risk: 'HIGH',
      security_risks: ['SQL injection through id'],
      breaking_risks: [],
      suggestions: ['Use a parameterised query'],
      missing_tests: ['lookup with a malicious id'],
    });
    const reviewCalls = completionsFor('review').length;
    expect((await sendDelivery(monitor.url, 'pull_request', pullRequest('opened', 12, 'a'.repeat(40)))).status).toBe(202);
    await waitFor(async () => (await reviews('?pr_number=12')).items.some((review) => review.status === 'completed' && review.comment_id !== null), 15_000);
    const [first] = (await reviews('?pr_number=12')).items;
    expect(first).toMatchObject({
      score: 35,
      merge_risk: 'high',
      security_risks: ['SQL injection through id'],
      suggestions: ['Use a parameterised query'],
      missing_tests: ['lookup with a malicious id'],
      head_sha: 'a'.repeat(40),
      diff_truncated: true,
      alerted: true,
    });
    const prompt = chatMessageText(completionsFor('review')[reviewCalls].messages[1]);
    expect(prompt).toContain('the diff below is truncated');
    expect(prompt.length).toBeLessThan(12_000 + 600);
    expect(completionsFor('review')[reviewCalls].response_format).toEqual({ type: 'json_object' });
    await waitFor(() => messagesContaining('AI review of PR #12').length === 1, 15_000);
    expect(messagesContaining('AI review of PR #12')[0].text).toContain('SQL injection through id');
    const comments = () => github.comments.filter((comment) => comment.issue === 'acme/api#12');
    expect(comments()).toHaveLength(1);
    expect(comments()[0].body).toContain('score 35/100');
    expect(comments()[0].body).toContain('AI-generated from untrusted input');
    expect(comments()[0].body).not.toContain('https://evil.example');
    expect(comments()[0].body).toContain('https[:]//evil[.]example/patch');
    expect(comments()[0].body).not.toContain('<img');
    expect(comments()[0].body).not.toContain(' @maintainer');
    expect(comments()[0].body).toContain(`${github.url}/acme/api/pull/12/files`);

    // The same head again (a redelivery or a second event for the same commit): no second review.
    const again = await sendDelivery(monitor.url, 'pull_request', pullRequest('synchronize', 12, 'a'.repeat(40)));
    expect(again.status).toBe(202);
    // Once the delivery is processed and no review is queued or running, a second review could only have happened already.
    const dataSource = monitor.app.get(DataSource);
    const placeholder = dataSource.options.type === 'postgres' ? '$1' : '?';
    await waitFor(async () => {
      const rows = (await dataSource.query(`SELECT "status" FROM "webhook_deliveries" WHERE "delivery_id" = ${placeholder}`, [again.deliveryId])) as Array<{ status: string }>;
      return rows.length === 1 && rows[0].status !== 'accepted';
    }, 15_000);
    await monitor.app.get(PrReviewService).idle();
    expect(completionsFor('review').length).toBe(reviewCalls + 1);

    // New commits: a fresh review, no alert, and the same comment edited in place.
    github.setPullRequest('acme/api', 12, { title: 'Add user lookup', headSha: 'b'.repeat(40), diff: 'diff --git a/src/db.ts b/src/db.ts\n+ const query = sql`SELECT * FROM users WHERE id = ${id}`;\n' });
    reviewReply = '```json\n' + JSON.stringify({ summary: 'Uses a parameterised query now.', score: 88, merge_risk: 'low', security_risks: [], breaking_risks: [], suggestions: [], missing_tests: [] }) + '\n```';
    expect((await sendDelivery(monitor.url, 'pull_request', pullRequest('synchronize', 12, 'b'.repeat(40)))).status).toBe(202);
    await waitFor(async () => (await reviews('?pr_number=12')).items.some((review) => review.head_sha === 'b'.repeat(40) && review.status === 'completed' && review.comment_id !== null), 15_000);
    const second = (await reviews('?pr_number=12')).items.find((review) => review.head_sha === 'b'.repeat(40));
    expect(second).toMatchObject({ score: 88, merge_risk: 'low', diff_truncated: false, alerted: false, comment_id: first.comment_id });
    expect(comments()).toHaveLength(1);
    expect(comments()[0].body).toContain('score 88/100');
    expect(github.requests.some((request) => request.method === 'PATCH' && request.path === `/repos/acme/api/issues/comments/${first.comment_id}`)).toBe(true);
    const single = await requestJson<ReviewBody>(monitor.url, `/api/v1/ai/reviews/${second?.id}`, { headers });
    expect(single.body).toMatchObject({ id: second?.id, summary: 'Uses a parameterised query now.' });
    expect(messagesContaining('AI review of PR #12')).toHaveLength(1);
  });

  it('shares one GitHub App between the sync and the AI features: one installation token for both', async () => {
    github.clearRequests();
    await monitor.app.get(GitHubSyncService).reconcileAll();
    expect(await monitor.app.get(AiGitHubSource).pullRequestDiff(INSTALLATION_ID, 'acme/api', 12)).toContain('diff --git');
    // The sync, the reviews above and this diff: all with the one token the process asked for.
    const tokens = github.issuedTokens.filter((token) => token.installationId === INSTALLATION_ID);
    expect(tokens).toHaveLength(1);
    const withToken = github.requests.filter((request) => request.headers.authorization === `token ${tokens[0]?.token}`).map((request) => request.path);
    expect(withToken).toEqual(expect.arrayContaining(['/installation/repositories', '/repos/acme/api/pulls/12']));
  });

  it('skips draft PRs and stores a failed review for a malformed or timed-out answer', async () => {
    const calls = completionsFor('review').length;
    expect((await sendDelivery(monitor.url, 'pull_request', pullRequest('opened', 13, 'c'.repeat(40), { draft: true }))).status).toBe(202);
    github.setPullRequest('acme/api', 14, { headSha: 'd'.repeat(40), diff: 'diff --git a/a b/a\n+x\n' });
    reviewReply = 'Looks fine to me!';
    expect((await sendDelivery(monitor.url, 'pull_request', pullRequest('opened', 14, 'd'.repeat(40)))).status).toBe(202);
    await waitFor(async () => (await reviews('?pr_number=14')).items.some((review) => review.status === 'failed'), 15_000);
    expect((await reviews('?pr_number=14')).items[0]).toMatchObject({ status: 'failed', error_code: 'malformed_response', alerted: false, score: null });
    expect((await reviews('?pr_number=13')).total).toBe(0);
    expect(completionsFor('review').length).toBe(calls + 1);

    openai.failNext({ kind: 'delay', ms: AI_TIMEOUT_MS * 3 }, { kind: 'delay', ms: AI_TIMEOUT_MS * 3 });
    github.setPullRequest('acme/api', 15, { headSha: 'e'.repeat(40), diff: 'diff --git a/b b/b\n+y\n' });
    expect((await sendDelivery(monitor.url, 'pull_request', pullRequest('opened', 15, 'e'.repeat(40)))).status).toBe(202);
    await waitFor(async () => (await reviews('?pr_number=15')).items.some((review) => review.status === 'failed'), 20_000);
    expect((await reviews('?pr_number=15')).items[0]).toMatchObject({ error_code: 'timeout' });
  });

  it('summarises a new release of a starred repository', async () => {
    const headers = adminHeaders(session);
    expect((await requestJson(monitor.url, '/api/v1/system/settings', { method: 'PUT', headers, body: { starred_username: 'octocat' } })).status).toBe(200);
    github.setStarred('octocat', ['vendor/lib']);
    github.addRelease('vendor/lib', { tag_name: 'v1.0.0', name: 'v1.0.0', body: 'First.' });
    const sync = monitor.app.get(GitHubSyncService);
    await sync.pollStarredReleases();
    github.addRelease('vendor/lib', { tag_name: 'v2.0.0', name: 'v2.0.0', body: 'Drops Node 18. Adds streaming responses.' });
    expect((await sync.pollStarredReleases()).published).toBe(1);
    await waitFor(() => messagesContaining('v2.0.0').length === 1, 15_000);
    const message = messagesContaining('v2.0.0')[0];
    expect(message.text).toContain('AI summary');
    expect(message.text).toContain('drops Node 18 and adds streaming');
    expect(chatMessageText(completionsFor('release').at(-1)?.messages[1])).toContain('Adds streaming responses');
  });

  it('sends digests written by the model, and the template when AI times out, fails or is off', async () => {
    const headers = adminHeaders(session);
    const produce = async () => {
      const response = await requestJson<Record<string, unknown>>(monitor.url, '/api/v1/digests', { method: 'POST', headers, body: { period: 'daily' } });
      expect(response.status).toBe(201);
      return response.body;
    };
    const ai = await produce();
    expect(ai).toMatchObject({ period: 'daily', source: 'ai', fallback_reason: null });
    expect(String(ai['body'])).toContain('All calm');
    expect(chatMessageText(completionsFor('digest').at(-1)?.messages[1])).toContain('Dependabot alert #1');
    await waitFor(() => messagesContaining('All calm').length === 1, 15_000);

    openai.failNext({ kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    expect(await produce()).toMatchObject({ source: 'template', fallback_reason: 'server_error' });
    openai.failNext({ kind: 'delay', ms: AI_TIMEOUT_MS * 3 }, { kind: 'delay', ms: AI_TIMEOUT_MS * 3 });
    const timedOut = await produce();
    expect(timedOut).toMatchObject({ source: 'template', fallback_reason: 'timeout' });
    expect(String(timedOut['body'])).toMatch(/Open now: \d+ issues, \d+ pull requests, \d+ security alerts/);
    openai.failNext({ kind: 'malformed' }, { kind: 'malformed' });
    expect(await produce()).toMatchObject({ source: 'template', fallback_reason: 'malformed_response' });

    expect((await setAi({ enabled: false })).status).toBe(200);
    const calls = openai.completions.length;
    const off = await produce();
    expect(off).toMatchObject({ source: 'template', fallback_reason: 'disabled' });
    expect(openai.completions.length).toBe(calls);
    await waitFor(() => telegram.messages.filter((message) => message.text.includes('Daily digest')).length === 5, 15_000);
    expect((await setAi({ enabled: true })).status).toBe(200);

    const list = await requestJson<{ items: Array<{ source: string }>; total: number }>(monitor.url, '/api/v1/digests?period=daily', { headers });
    expect(list.body.total).toBe(5);
  });

  it('produces the scheduled daily digest once at the configured local time', async () => {
    const headers = adminHeaders(session);
    const now = new Date();
    const at = new Date(now.getTime() + 2 * 60_000);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    expect((await requestJson(monitor.url, '/api/v1/system/settings', { method: 'PUT', headers, body: { time_zone: 'Asia/Tokyo', digest_time: local } })).status).toBe(200);
    const digests = monitor.app.get(DigestService);
    expect(await digests.tick(new Date(now.getTime() + 60_000))).toHaveLength(0);
    const produced = await digests.tick(new Date(now.getTime() + 3 * 60_000));
    expect(produced.map((digest) => digest.periodKey)).toEqual([`daily:${new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(at)}`]);
    expect(await digests.tick(new Date(now.getTime() + 4 * 60_000))).toHaveLength(0);
  });

  function dependabotAlert(action: string, number: number, summary: string): Record<string, unknown> {
    return {
      action,
      installation: { id: INSTALLATION_ID },
      repository: repositoryPayload('acme/api', Number(github.repositories.get('acme/api')?.id)),
      alert: {
        number,
        state: 'open',
        html_url: `https://github.com/acme/api/security/dependabot/${number}`,
        security_advisory: { summary, severity: 'high' },
        dependency: { package: { name: 'lodash' } },
        updated_at: new Date().toISOString(),
      },
      sender: { login: 'dependabot[bot]' },
    };
  }

  function workflowRun(runId: number, conclusion: string): Record<string, unknown> {
    return {
      action: 'completed',
      installation: { id: INSTALLATION_ID },
      repository: repositoryPayload('acme/api', Number(github.repositories.get('acme/api')?.id)),
      workflow_run: {
        id: runId,
        name: 'CI',
        run_number: 42,
        run_attempt: 1,
        head_branch: 'main',
        head_sha: 'f'.repeat(40),
        event: 'push',
        status: 'completed',
        conclusion,
        html_url: `https://github.com/acme/api/actions/runs/${runId}`,
        updated_at: new Date().toISOString(),
      },
      sender: { login: 'dev' },
    };
  }

  function pullRequest(action: string, number: number, headSha: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      action,
      installation: { id: INSTALLATION_ID },
      repository: repositoryPayload('acme/api', Number(github.repositories.get('acme/api')?.id)),
      pull_request: {
        number,
        title: 'Add user lookup',
        body: 'Looks up users by id.',
        state: 'open',
        draft: false,
        merged: false,
        html_url: `https://github.com/acme/api/pull/${number}`,
        user: { login: 'contributor' },
        head: { sha: headSha, ref: 'feature' },
        updated_at: new Date().toISOString(),
        ...extra,
      },
      sender: { login: 'contributor' },
    };
  }
});
