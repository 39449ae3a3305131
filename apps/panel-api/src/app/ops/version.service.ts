import { Inject, Injectable, Logger } from '@nestjs/common';
import { compareVersions, describeReleaseFetchFailure, packageVersion } from '@shared/config';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { RELEASE_FEED, ReleaseFeed } from './release-feed';

export interface VersionInfo {
  version: string;
  package_version: string;
  git_sha: string | null;
  git_branch: string | null;
  build_time: string | null;
  runtime: string;
  node_version: string;
}

export interface UpdateCheckResult {
  enabled: boolean;
  ok: boolean;
  current_version: string;
  latest_version: string | null;
  update_available: boolean | null;
  release_url: string | null;
  published_at: string | null;
  checked_at: string | null;
  cached: boolean;
  reason: string | null;
}

/** A good answer is reused for six hours, a failure for five minutes (so a flaky feed is not hammered). */
export const UPDATE_CHECK_SUCCESS_TTL_MS = 6 * 60 * 60 * 1000;
export const UPDATE_CHECK_FAILURE_TTL_MS = 5 * 60 * 1000;

@Injectable()
export class VersionService {
  private readonly logger = new Logger(VersionService.name);
  private cached?: { result: UpdateCheckResult; expiresAt: number };
  private inFlight?: Promise<UpdateCheckResult>;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @Inject(RELEASE_FEED) private readonly feed: ReleaseFeed,
  ) {}

  info(): VersionInfo {
    const packaged = packageVersion();
    return {
      version: this.config.version.appVersion ?? packaged,
      package_version: packaged,
      git_sha: this.config.version.gitSha ?? null,
      git_branch: this.config.version.gitBranch ?? null,
      build_time: this.config.version.buildTime ?? null,
      runtime: 'node',
      node_version: process.version,
    };
  }

  /** Never throws: every failure becomes `ok: false` with the reason, as the spec wants it soft. */
  async checkForUpdate(force: boolean): Promise<UpdateCheckResult> {
    const current = this.info().version;
    if (!this.config.version.updateCheck) {
      return this.result(current, { enabled: false, ok: false, reason: 'update check disabled (APP_UPDATE_CHECK=0)' });
    }
    if (!force && this.cached && this.cached.expiresAt > Date.now()) return { ...this.cached.result, cached: true };
    this.inFlight ??= this.fetchLatest(current).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchLatest(current: string): Promise<UpdateCheckResult> {
    const checkedAt = new Date().toISOString();
    let result: UpdateCheckResult;
    try {
      const latest = await this.feed.latest();
      const order = compareVersions(latest.version, current);
      result = this.result(current, {
        ok: true,
        latest_version: latest.version,
        update_available: order === undefined ? null : order > 0,
        release_url: latest.url,
        published_at: latest.publishedAt,
        checked_at: checkedAt,
        reason: order === undefined ? 'versions are not both semantic versions; cannot compare' : null,
      });
    } catch (error) {
      const reason = describeReleaseFetchFailure(error, 'the release feed');
      this.logger.warn(`update check failed: ${reason}`);
      result = this.result(current, { ok: false, checked_at: checkedAt, reason: `update check failed: ${reason}` });
    }
    this.cached = { result, expiresAt: Date.now() + (result.ok ? UPDATE_CHECK_SUCCESS_TTL_MS : UPDATE_CHECK_FAILURE_TTL_MS) };
    return result;
  }

  private result(current: string, fields: Partial<UpdateCheckResult>): UpdateCheckResult {
    return {
      enabled: true,
      ok: false,
      current_version: current,
      latest_version: null,
      update_available: null,
      release_url: null,
      published_at: null,
      checked_at: null,
      cached: false,
      reason: null,
      ...fields,
    };
  }
}
