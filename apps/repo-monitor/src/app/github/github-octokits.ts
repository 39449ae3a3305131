import { Inject, Injectable, Optional } from '@nestjs/common';
import { App } from '@octokit/app';
import { Octokit } from '@octokit/core';
import { fetchThrough } from '@shared/outbound-http';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { OUTBOUND_DISPATCHER } from '../outbound/outbound-dispatcher';
import { ShortCache } from '../common/short-cache';
import { SettingsChanges } from '../settings/settings-changes';
import { GitHubAppCredentials } from './github-client';

/** Where the effective GitHub App credentials come from (environment, or the console's settings). */
export abstract class GitHubAppCredentialSource {
  abstract credentials(): Promise<GitHubAppCredentials | undefined>;
}

/** The effective app id and private key of the GitHub App settings (environment, else console). */
@Injectable()
export class SettingsGitHubAppCredentials extends GitHubAppCredentialSource {
  private readonly cache: ShortCache<GitHubAppCredentials | undefined>;

  constructor(@Inject(MONITOR_CONFIG) config: MonitorConfig, settings: GithubAppSettingsService, changes: SettingsChanges) {
    super();
    this.cache = new ShortCache(async () => {
      const { appId, privateKey } = await settings.current();
      return appId && privateKey ? { appId, privateKey, apiUrl: config.github.apiUrl } : undefined;
    }, config.settings.refreshMs);
    changes.subscribe('github_app', () => this.cache.clear());
  }

  credentials(): Promise<GitHubAppCredentials | undefined> {
    return this.cache.get();
  }
}

/**
 * The process's one GitHub App client (@octokit/app, with its installation-token cache) and the PAT
 * client for external repositories, both over the outbound dispatcher (HTTPS_PROXY / NO_PROXY).
 * Every feature that talks to GitHub (sync, AI) goes through this, so an installation token is
 * asked for once and shared. The App is built again only when its credentials change.
 */
@Injectable()
export class GitHubOctokits {
  private current: { key: string; app: App } | undefined;
  private readonly fetch: typeof fetch;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly credentialSource: GitHubAppCredentialSource,
    @Optional() @Inject(OUTBOUND_DISPATCHER) dispatcher?: Dispatcher,
  ) {
    this.fetch = fetchThrough(dispatcher);
  }

  async appConfigured(): Promise<boolean> {
    return Boolean(await this.credentialSource.credentials());
  }

  /** The App (JWT-authenticated calls, installation iterators); throws when it is not configured. */
  async app(): Promise<App> {
    const credentials = await this.credentialSource.credentials();
    if (!credentials) throw new Error('the GitHub App is not configured (app id and private key)');
    const key = `${credentials.appId}|${credentials.apiUrl}|${credentials.privateKey}`;
    if (this.current?.key !== key) {
      const AppOctokit = Octokit.defaults({ baseUrl: credentials.apiUrl, request: { fetch: this.fetch } });
      this.current = { key, app: new App({ appId: credentials.appId, privateKey: credentials.privateKey, Octokit: AppOctokit }) };
    }
    return this.current.app;
  }

  /** A client acting as the installation (its token from the App's cache). */
  async installation(installationId: number): Promise<Octokit> {
    return (await (await this.app()).getInstallationOctokit(installationId)) as unknown as Octokit;
  }

  /** A client with MONITOR_EXTERNAL_PAT, for repositories outside any installation. */
  pat(): Octokit {
    return new Octokit({ auth: this.config.github.externalPat, baseUrl: this.config.github.apiUrl, request: { fetch: this.fetch } });
  }
}
