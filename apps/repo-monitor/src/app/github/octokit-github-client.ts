import { Inject, Injectable, Optional } from '@nestjs/common';
import { App } from '@octokit/app';
import { Octokit } from '@octokit/core';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { ShortCache } from '../processing/short-cache';
import { OUTBOUND_DISPATCHER } from '../outbound/outbound-dispatcher';
import { Conditional, GitHubAppCredentials, GitHubClient, GitHubObject } from './github-client';

/** Where the effective GitHub App credentials come from (environment, or the console's settings). */
export abstract class GitHubAppCredentialSource {
  abstract credentials(): Promise<GitHubAppCredentials | undefined>;
}

/** The effective app id and private key of the GitHub App settings (environment, else console). */
@Injectable()
export class SettingsGitHubAppCredentials extends GitHubAppCredentialSource {
  private readonly cache: ShortCache<GitHubAppCredentials | undefined>;

  constructor(@Inject(MONITOR_CONFIG) config: MonitorConfig, settings: GithubAppSettingsService) {
    super();
    this.cache = new ShortCache(async () => {
      const { appId, privateKey } = await settings.current();
      return appId && privateKey ? { appId, privateKey, apiUrl: config.github.apiUrl } : undefined;
    }, 10_000);
  }

  credentials(): Promise<GitHubAppCredentials | undefined> {
    return this.cache.get();
  }
}

interface RequestFailure {
  status?: number;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as RequestFailure).status : undefined;
}

/** GitHubClient over @octokit/app (installation tokens) and @octokit/core (PAT), honouring HTTPS_PROXY. */
@Injectable()
export class OctokitGitHubClient extends GitHubClient {
  private app: { key: string; app: App } | undefined;
  private readonly fetchThroughProxy: typeof fetch;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly credentialSource: GitHubAppCredentialSource,
    @Optional() @Inject(OUTBOUND_DISPATCHER) dispatcher?: Dispatcher,
  ) {
    super();
    this.fetchThroughProxy = dispatcher
      ? (input, init) => fetch(input, { ...(init ?? {}), dispatcher } as unknown as RequestInit)
      : (input, init) => fetch(input, init);
  }

  async appConfigured(): Promise<boolean> {
    return Boolean(await this.credentialSource.credentials());
  }

  async listInstallations(): Promise<GitHubObject[]> {
    const app = await this.currentApp();
    const installations: GitHubObject[] = [];
    for await (const { installation } of app.eachInstallation.iterator()) installations.push(installation as unknown as GitHubObject);
    return installations;
  }

  async listInstallationRepositories(installationId: number): Promise<GitHubObject[]> {
    const app = await this.currentApp();
    const repositories: GitHubObject[] = [];
    for await (const { repository } of app.eachRepository.iterator({ installationId })) repositories.push(repository as unknown as GitHubObject);
    return repositories;
  }

  async listOpenIssues(installationId: number | null, fullName: string): Promise<GitHubObject[]> {
    const octokit = installationId ? await (await this.currentApp()).getInstallationOctokit(installationId) : this.patOctokit();
    const [owner, repo] = fullName.split('/');
    const items: GitHubObject[] = [];
    for (let page = 1; page <= 10; page++) {
      let response;
      try {
        response = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner, repo, state: 'open', per_page: 100, page });
      } catch (error) {
        // 410: issues are turned off for the repository; 404: no issues endpoint for it.
        if (statusOf(error) === 410 || statusOf(error) === 404) return items;
        throw error;
      }
      const batch = response.data as unknown as GitHubObject[];
      items.push(...batch);
      if (batch.length < 100) break;
    }
    return items;
  }

  async getPublicRepository(fullName: string): Promise<GitHubObject | null> {
    const [owner, repo] = fullName.split('/');
    try {
      const response = await this.patOctokit().request('GET /repos/{owner}/{repo}', { owner, repo });
      const data = response.data as unknown as GitHubObject;
      return data['private'] === true ? null : data;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async listStarred(username: string, etag: string | null): Promise<Conditional<GitHubObject[]>> {
    return this.conditional(etag, async (headers) => {
      const response = await this.patOctokit().request('GET /users/{username}/starred', { username, per_page: 100, headers });
      return { etag: response.headers.etag ?? null, value: response.data as unknown as GitHubObject[] };
    });
  }

  async latestRelease(fullName: string, etag: string | null): Promise<Conditional<GitHubObject | null>> {
    const [owner, repo] = fullName.split('/');
    try {
      return await this.conditional(etag, async (headers) => {
        const response = await this.patOctokit().request('GET /repos/{owner}/{repo}/releases/latest', { owner, repo, headers });
        return { etag: response.headers.etag ?? null, value: response.data as unknown as GitHubObject };
      });
    } catch (error) {
      if (statusOf(error) === 404) return { notModified: false, etag: null, value: null };
      throw error;
    }
  }

  private async conditional<T>(
    etag: string | null,
    call: (headers: Record<string, string>) => Promise<{ etag: string | null; value: T }>,
  ): Promise<Conditional<T>> {
    try {
      const result = await call(etag ? { 'if-none-match': etag } : {});
      return { notModified: false, ...result };
    } catch (error) {
      // A 304 costs no rate limit: nothing changed since the ETag.
      if (statusOf(error) === 304) return { notModified: true };
      throw error;
    }
  }

  private patOctokit(): Octokit {
    return new Octokit({
      auth: this.config.github.externalPat,
      baseUrl: this.config.github.apiUrl,
      request: { fetch: this.fetchThroughProxy },
    });
  }

  private async currentApp(): Promise<App> {
    const credentials = await this.credentialSource.credentials();
    if (!credentials) throw new Error('the GitHub App is not configured (app id and private key)');
    const key = `${credentials.appId}|${credentials.apiUrl}|${credentials.privateKey}`;
    if (this.app?.key !== key) {
      const AppOctokit = Octokit.defaults({ baseUrl: credentials.apiUrl, request: { fetch: this.fetchThroughProxy } });
      this.app = { key, app: new App({ appId: credentials.appId, privateKey: credentials.privateKey, Octokit: AppOctokit }) };
    }
    return this.app.app;
  }
}
