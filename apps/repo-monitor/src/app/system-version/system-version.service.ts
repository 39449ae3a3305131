import { Inject, Injectable, Logger } from '@nestjs/common';
import { compareVersions, describeReleaseFetchFailure, fetchLatestRelease, packageVersion } from '@shared/config';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { UPDATE_CHECK_FETCH, UpdateCheckFetch } from './update-check';

export interface VersionInfo {
  version: string;
  package_version: string;
  git_sha: string | null;
  git_branch: string | null;
  build_time: string | null;
  node_version: string;
  update_check_enabled: boolean;
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

/** A good answer is reused for six hours, a failure for five minutes. */
export const UPDATE_CHECK_SUCCESS_TTL_MS = 6 * 60 * 60 * 1000;
export const UPDATE_CHECK_FAILURE_TTL_MS = 5 * 60 * 1000;
const UPDATE_SOURCE = 'the update source';

/** Local version and build data, and the soft remote check against MONITOR_UPDATE_CHECK_URL. */
@Injectable()
export class SystemVersionService {
  private readonly logger = new Logger(SystemVersionService.name);
  private cached?: { result: UpdateCheckResult; expiresAt: number };
  private inFlight?: Promise<UpdateCheckResult>;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @Inject(UPDATE_CHECK_FETCH) private readonly fetchUpdate: UpdateCheckFetch,
  ) {}

  info(): VersionInfo {
    const packaged = packageVersion();
    return {
      version: this.config.build.version ?? packaged,
      package_version: packaged,
      git_sha: this.config.build.gitSha ?? null,
      git_branch: this.config.build.gitBranch ?? null,
      build_time: this.config.build.buildTime ?? null,
      node_version: process.version,
      update_check_enabled: this.config.updateCheck.enabled,
    };
  }

  /** Never throws: a failure is `ok: false` with the reason (the check is soft by design). */
  async check(force: boolean): Promise<UpdateCheckResult> {
    const current = this.info().version;
    if (!this.config.updateCheck.enabled) {
      return this.result(current, { enabled: false, reason: 'the update check is turned off (MONITOR_UPDATE_CHECK=false)' });
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
      const headers: Record<string, string> = { accept: 'application/vnd.github+json', 'user-agent': `repo-monitor/${current}` };
      if (this.config.updateCheck.token) headers['authorization'] = `Bearer ${this.config.updateCheck.token}`;
      const latest = await fetchLatestRelease({
        url: this.config.updateCheck.url,
        headers,
        sourceName: UPDATE_SOURCE,
        redirectAdvice: 'the token stays with the configured host; set MONITOR_UPDATE_CHECK_URL to the final address',
        fetch: this.fetchUpdate,
      });
      const order = compareVersions(latest.version, current);
      result = this.result(current, {
        ok: true,
        latest_version: latest.version,
        update_available: order === undefined ? null : order > 0,
        release_url: latest.url,
        published_at: latest.publishedAt,
        checked_at: checkedAt,
        reason: order === undefined ? 'the versions are not both semantic versions; cannot compare' : null,
      });
    } catch (error) {
      const reason = describeReleaseFetchFailure(error, UPDATE_SOURCE);
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
