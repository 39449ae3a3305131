import { App } from '@octokit/app';
import { Octokit } from '@octokit/core';
import { generateGitHubAppKeyPair, LocalGitHubApi } from './local-github-api';

describe('LocalGitHubApi with @octokit/app', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: 4242, publicKey: keys.publicKey, appSlug: 'repo-monitor-test', personalAccessTokens: ['ghp_external'] });
  let app: App;

  beforeAll(async () => {
    await github.start();
    app = new App({ appId: 4242, privateKey: keys.privateKey, Octokit: Octokit.defaults({ baseUrl: github.url }) });
    github.addInstallation({ id: 77, account: 'acme', repositories: ['acme/one', 'acme/two', 'acme/three', 'acme/four', 'acme/five'] });
    github.addRepository('acme/secret', { private: true });
  });
  afterAll(async () => {
    await github.close();
  });

  it('issues an installation token for a JWT signed with the App key and lists repositories page by page', async () => {
    const octokit = await app.getInstallationOctokit(77);
    const first = await octokit.request('GET /installation/repositories', { per_page: 2 });
    expect(github.issuedTokens).toHaveLength(1);
    const tokenRequest = github.requests.find((request) => request.path === '/app/installations/77/access_tokens');
    expect(tokenRequest?.headers.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i);
    expect(github.requests.find((request) => request.path === '/installation/repositories')?.headers.authorization).toBe(`token ${github.issuedTokens[0]?.token}`);
    expect(first.data.total_count).toBe(5);
    expect(first.data.repositories.map((repository) => repository.full_name)).toEqual(['acme/one', 'acme/two']);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain(`${github.url}/installation/repositories?per_page=2&page=2`);

    const all: string[] = [];
    for await (const { repository } of app.eachRepository.iterator({ installationId: 77 })) all.push(repository.full_name);
    expect(all).toEqual(['acme/one', 'acme/two', 'acme/three', 'acme/four', 'acme/five']);
  });

  it('records App webhook deliveries (failed ones too), lists them newest first by cursor and redelivers one when asked', async () => {
    const { createServer } = await import('node:http');
    const received: Array<{ guid: string | undefined; signature: string | undefined }> = [];
    const target = createServer((request, response) => {
      received.push({ guid: request.headers['x-github-delivery'] as string | undefined, signature: request.headers['x-hub-signature-256'] as string | undefined });
      request.resume();
      request.on('end', () => response.writeHead(202).end());
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as { port: number }).port;
    github.appWebhook = { url: `http://127.0.0.1:${port}/hook`, secret: 'hook-secret' };
    const reached = await github.sendAppWebhook('ping', { zen: 'one' });
    await new Promise<void>((resolve) => target.close(() => resolve()));
    const failed = await github.sendAppWebhook('issues', { action: 'opened', installation: { id: 77 }, repository: { id: 5 } });
    const third = await github.sendAppWebhook('ping', { zen: 'three' });
    expect([reached.status_code, failed.status_code, third.status_code]).toEqual([202, 0, 0]);
    expect(failed).toMatchObject({ event: 'issues', action: 'opened', installation_id: 77, repository_id: 5, redelivery: false, status: 'failed to connect to host' });
    expect(received).toEqual([{ guid: reached.guid, signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/) }]);

    const first = await app.octokit.request('GET /app/hook/deliveries', { per_page: 2 });
    expect(first.data.map((item) => item.guid)).toEqual([third.guid, failed.guid]);
    expect(first.data[0]).not.toHaveProperty('body');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    const cursor = new URL(next as string).searchParams.get('cursor') as string;
    const second = await app.octokit.request('GET /app/hook/deliveries', { per_page: 2, cursor });
    expect(second.data.map((item) => item.guid)).toEqual([reached.guid]);
    expect(second.headers.link ?? '').not.toContain('rel="next"');
    await expect(new Octokit({ baseUrl: github.url }).request('GET /app/hook/deliveries')).rejects.toMatchObject({ status: 401 });

    const asked = await app.octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: failed.id });
    expect(asked.status).toBe(202);
    await github.redeliveriesSettled();
    expect(github.redeliveryRequests).toEqual([failed.id]);
    const again = github.hookDeliveries[github.hookDeliveries.length - 1];
    expect(again).toMatchObject({ guid: failed.guid, redelivery: true, body: failed.body, event: 'issues' });
    expect(again?.id).not.toBe(failed.id);
    await expect(app.octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: 1 })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a JWT signed with another key', async () => {
    const other = generateGitHubAppKeyPair();
    const impostor = new App({ appId: 4242, privateKey: other.privateKey, Octokit: Octokit.defaults({ baseUrl: github.url }) });
    const octokit = await impostor.getInstallationOctokit(77);
    await expect(octokit.request('GET /installation/repositories')).rejects.toMatchObject({ status: 401 });
    expect(github.verifyAppJwt('a.b.c')).toBe(false);
  });

  it('keeps private repositories to installations that have them', async () => {
    const octokit = await app.getInstallationOctokit(77);
    await expect(octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'secret' })).rejects.toMatchObject({ status: 404 });
    const pat = new Octokit({ baseUrl: github.url, auth: 'ghp_external' });
    expect((await pat.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'secret' })).data.private).toBe(true);
    const bad = new Octokit({ baseUrl: github.url, auth: 'ghp_wrong' });
    await expect(bad.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'one' })).rejects.toMatchObject({ status: 401 });
  });

  it('answers starred with an ETag and a free 304 for an unchanged list', async () => {
    github.setStarred('octocat', ['tools/alpha', 'tools/beta']);
    const octokit = new Octokit({ baseUrl: github.url, auth: 'ghp_external' });
    const first = await octokit.request('GET /users/{username}/starred', { username: 'octocat' });
    expect((first.data as Array<{ full_name: string }>).map((repository) => repository.full_name)).toEqual(['tools/alpha', 'tools/beta']);
    const etag = first.headers.etag as string;
    const remaining = Number(first.headers['x-ratelimit-remaining']);
    await expect(octokit.request('GET /users/{username}/starred', { username: 'octocat', headers: { 'if-none-match': etag } })).rejects.toMatchObject({ status: 304 });
    expect(github.notModifiedCount).toBe(1);
    expect(github.rateRemaining).toBe(remaining);
    github.setStarred('octocat', ['tools/alpha', 'tools/beta', 'tools/gamma']);
    const changed = await octokit.request('GET /users/{username}/starred', { username: 'octocat', headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.data).toHaveLength(3);
  });

  it('serves the latest release, skipping pre-releases', async () => {
    github.addRelease('tools/alpha', { tag_name: 'v1.0.0' });
    github.addRelease('tools/alpha', { tag_name: 'v2.0.0-rc.1', prerelease: true });
    const octokit = new Octokit({ baseUrl: github.url });
    expect((await octokit.request('GET /repos/{owner}/{repo}/releases/latest', { owner: 'tools', repo: 'alpha' })).data.tag_name).toBe('v1.0.0');
    await expect(octokit.request('GET /repos/{owner}/{repo}/releases/latest', { owner: 'tools', repo: 'beta' })).rejects.toMatchObject({ status: 404 });
  });

  it('serves a pull request as JSON or as a diff', async () => {
    github.setPullRequest('acme/one', 5, { title: 'Add feature', headSha: 'abc123', diff: 'diff --git a/x b/x\n+new line\n' });
    const octokit = await app.getInstallationOctokit(77);
    const pull = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'acme', repo: 'one', pull_number: 5 });
    expect(pull.data).toMatchObject({ number: 5, title: 'Add feature', head: { sha: 'abc123' } });
    const diff = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'acme', repo: 'one', pull_number: 5, mediaType: { format: 'diff' } });
    expect(diff.data).toBe('diff --git a/x b/x\n+new line\n');
  });

  it('lists issues with pull requests among them, by state and page by page', async () => {
    github.setIssue('acme/two', { number: 1, title: 'First bug' });
    github.setIssue('acme/two', { number: 2, title: 'Fixed bug', state: 'closed' });
    github.setIssue('acme/two', { number: 4, title: 'Second bug' });
    github.setPullRequest('acme/two', 3, { title: 'Fix first bug' });
    const octokit = await app.getInstallationOctokit(77);
    const open = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'two' });
    expect(open.data.map((item) => [item.number, item.title, Boolean(item.pull_request)])).toEqual([
      [4, 'Second bug', false],
      [3, 'Fix first bug', true],
      [1, 'First bug', false],
    ]);
    expect(open.data.find((item) => item.number === 3)?.pull_request?.html_url).toBe('https://github.com/acme/two/pull/3');
    const closed = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'two', state: 'closed' });
    expect(closed.data.map((item) => item.number)).toEqual([2]);
    const firstPage = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'two', state: 'all', per_page: 2 });
    expect(firstPage.headers.link).toContain('rel="next"');
    const secondPage = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'two', state: 'all', per_page: 2, page: 2 });
    expect(secondPage.headers.link).not.toContain('rel="next"');
    expect([...firstPage.data, ...secondPage.data].map((item) => item.number)).toEqual([4, 3, 2, 1]);
    await expect(octokit.request('GET /repos/{owner}/{repo}/issues', { owner: 'acme', repo: 'two', state: 'draft' as 'open' })).rejects.toMatchObject({ status: 422 });
  });

  it('lists workflow jobs and follows the log redirect', async () => {
    github.setWorkflowJobs('acme/one', 900, [{ id: 901, name: 'test', conclusion: 'failure', log: 'Error: expected 1 to be 2\n' }]);
    const octokit = await app.getInstallationOctokit(77);
    const jobs = await octokit.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { owner: 'acme', repo: 'one', run_id: 900 });
    expect(jobs.data.jobs.map((job) => [job.id, job.conclusion])).toEqual([[901, 'failure']]);
    const logs = await octokit.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner: 'acme', repo: 'one', job_id: 901 });
    expect(logs.data).toBe('Error: expected 1 to be 2\n');
  });

  it('creates and edits issue comments', async () => {
    const octokit = await app.getInstallationOctokit(77);
    const created = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'acme', repo: 'one', issue_number: 5, body: 'AI review: 80/100' });
    expect(created.status).toBe(201);
    expect(created.data.user?.login).toBe('repo-monitor-test[bot]');
    const edited = await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: 'acme', repo: 'one', comment_id: created.data.id, body: 'AI review: 90/100' });
    expect(edited.data.body).toBe('AI review: 90/100');
    const listed = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'acme', repo: 'one', issue_number: 5 });
    expect(listed.data.map((comment) => comment.body)).toEqual(['AI review: 90/100']);
    await expect(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'acme', repo: 'one', issue_number: 5, body: '' })).rejects.toMatchObject({ status: 422 });
    expect(github.comments).toHaveLength(1);
  });

  it('reports the rate limit and answers queued faults', async () => {
    const octokit = new Octokit({ baseUrl: github.url, auth: 'ghp_external' });
    const limit = await octokit.request('GET /rate_limit');
    expect(limit.data.resources.core).toMatchObject({ limit: 5000, remaining: github.rateRemaining });
    github.failNext({ status: 403, message: 'API rate limit exceeded', headers: { 'x-ratelimit-remaining': '0' }, path: /^\/repos\// });
    await expect(octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'one' })).rejects.toMatchObject({ status: 403 });
    expect((await octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'one' })).status).toBe(200);
  });
});
