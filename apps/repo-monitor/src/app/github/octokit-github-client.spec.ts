import { generateGitHubAppKeyPair, LocalGitHubApi, LocalHttpProxy } from '@shared/testing';
import { loadMonitorConfig } from '../config/monitor-config';
import { createOutboundDispatcher } from '../outbound/outbound-dispatcher';
import { OctokitAiGitHubSource } from '../ai/ai-github-source';
import { GitHubAppCredentials } from './github-client';
import { GitHubAppCredentialSource, GitHubOctokits } from './github-octokits';
import { OctokitGitHubClient } from './octokit-github-client';

const APP_ID = 3131;
const PAT = 'ghp_client_spec';

class FixedCredentials extends GitHubAppCredentialSource {
  constructor(private readonly value: GitHubAppCredentials | undefined) {
    super();
  }
  async credentials(): Promise<GitHubAppCredentials | undefined> {
    return this.value;
  }
}

describe('OctokitGitHubClient against the local GitHub API', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey, personalAccessTokens: [PAT] });
  let client: OctokitGitHubClient;

  const clientWith = (credentials: GitHubAppCredentials | undefined, env: Record<string, string> = {}) => {
    const config = loadMonitorConfig({ env: { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: 'file:/tmp/unused.db', MONITOR_VCS_API_URL: github.url, MONITOR_EXTERNAL_PAT: PAT, ...env } });
    return new OctokitGitHubClient(new GitHubOctokits(config, new FixedCredentials(credentials)));
  };

  beforeAll(async () => {
    await github.start();
    github.addInstallation({ id: 1, account: 'acme', repositories: Array.from({ length: 105 }, (_, index) => `acme/repo-${index + 1}`) });
    github.addInstallation({ id: 2, account: 'solo', repositories: ['solo/only'] });
    github.addRepository('public/lib');
    github.addRepository('public/hidden', { private: true });
    client = clientWith({ appId: String(APP_ID), privateKey: keys.privateKey, apiUrl: github.url });
  });
  afterAll(async () => {
    await github.close();
  });

  it('knows whether the app is configured', async () => {
    expect(await client.appConfigured()).toBe(true);
    expect(await clientWith(undefined).appConfigured()).toBe(false);
    await expect(clientWith(undefined).listInstallations()).rejects.toThrow(/not configured/);
  });

  it('lists installations with the App JWT and every page of an installation’s repositories with its token', async () => {
    expect((await client.listInstallations()).map((installation) => installation['id'])).toEqual([1, 2]);
    const repositories = await client.listInstallationRepositories(1);
    expect(repositories).toHaveLength(105);
    expect(repositories[104]?.['full_name']).toBe('acme/repo-105');
    expect(github.issuedTokens.some((token) => token.installationId === 1)).toBe(true);
  });

  it('lists open issues and pull requests page by page (installation token, or the PAT for external repositories)', async () => {
    for (let number = 1; number <= 120; number++) github.setIssue('acme/repo-1', { number, title: `Issue ${number}`, state: number % 10 === 0 ? 'closed' : 'open' });
    github.setPullRequest('acme/repo-1', 500, { title: 'A change' });
    const items = await client.listOpenIssues(1, 'acme/repo-1');
    expect(items).toHaveLength(109);
    expect(items.filter((item) => item['pull_request'])).toHaveLength(1);
    expect(items.every((item) => item['state'] === 'open')).toBe(true);
    github.setIssue('public/lib', { number: 1, title: 'Outside' });
    github.clearRequests();
    expect((await client.listOpenIssues(null, 'public/lib')).map((item) => item['title'])).toEqual(['Outside']);
    expect(github.requests[0]?.headers.authorization).toBe(`token ${PAT}`);
  });

  it('treats a repository without issues (410/404) as having none', async () => {
    github.failNext({ status: 410, message: 'Issues are disabled for this repo', path: /\/issues$/ });
    expect(await client.listOpenIssues(2, 'solo/only')).toEqual([]);
  });

  it('finds public repositories through the PAT and hides private or missing ones', async () => {
    expect((await client.getPublicRepository('public/lib'))?.['full_name']).toBe('public/lib');
    expect(await client.getPublicRepository('public/hidden')).toBeNull();
    expect(await client.getPublicRepository('public/missing')).toBeNull();
  });

  it('uses ETags: an unchanged starred list or latest release is a free 304', async () => {
    github.setStarred('fan', ['public/lib']);
    github.addRelease('public/lib', { tag_name: 'v1' });
    const starred = await client.listStarred('fan', null);
    if (starred.notModified) throw new Error('expected a full answer');
    expect(starred.value.map((repository) => repository['full_name'])).toEqual(['public/lib']);
    const rate = github.rateRemaining;
    expect(await client.listStarred('fan', starred.etag)).toEqual({ notModified: true });
    const release = await client.latestRelease('public/lib', null);
    if (release.notModified) throw new Error('expected a full answer');
    expect(release.value?.['tag_name']).toBe('v1');
    expect(await client.latestRelease('public/lib', release.etag)).toEqual({ notModified: true });
    expect(github.rateRemaining).toBe(rate - 1);
    expect(await client.latestRelease('acme/repo-2', null)).toEqual({ notModified: false, etag: null, value: null });
  });

  it('sends its requests through the outbound proxy dispatcher', async () => {
    const proxy = await new LocalHttpProxy().start();
    const dispatcher = createOutboundDispatcher({ httpsProxy: proxy.url });
    try {
      const config = loadMonitorConfig({ env: { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: 'file:/tmp/unused.db', MONITOR_VCS_API_URL: github.url, MONITOR_EXTERNAL_PAT: PAT } });
      const proxied = new OctokitGitHubClient(new GitHubOctokits(config, new FixedCredentials(undefined), dispatcher));
      expect(await proxied.getPublicRepository('public/lib')).not.toBeNull();
      expect(proxy.targets).toEqual([new URL(github.url).host]);
    } finally {
      await dispatcher.close();
      await proxy.close();
    }
  });

  it('asks for one installation token for every client of the one App (the sync and the AI features)', async () => {
    const config = loadMonitorConfig({ env: { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: 'file:/tmp/unused.db', MONITOR_VCS_API_URL: github.url, MONITOR_EXTERNAL_PAT: PAT } });
    github.addInstallation({ id: 3, account: 'shared', repositories: ['shared/app'] });
    github.setPullRequest('shared/app', 7, { title: 'A change', diff: 'diff --git a/x b/x\n' });
    const octokits = new GitHubOctokits(config, new FixedCredentials({ appId: String(APP_ID), privateKey: keys.privateKey, apiUrl: github.url }));
    const sync = new OctokitGitHubClient(octokits);
    const ai = new OctokitAiGitHubSource(octokits);
    expect(await sync.listInstallationRepositories(3)).toHaveLength(1);
    expect(await ai.pullRequestDiff(3, 'shared/app', 7)).toContain('diff --git');
    expect(await sync.listOpenIssues(3, 'shared/app')).toHaveLength(1);
    expect(github.issuedTokens.filter((token) => token.installationId === 3)).toHaveLength(1);
  });
});
