import { Inject, Injectable, Logger } from '@nestjs/common';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { packageVersion } from '@shared/config';
import { compareVersions, latestReleaseOf, UPDATE_CHECK_FETCH, UpdateCheckFetch } from './update-check';

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
const UPDATE_CHECK_TIMEOUT_MS = 10_000;

/** fetch hides the useful part of a failure (ECONNREFUSED, a certificate error) in `cause`. */
function describeFailure(error: unknown): string {
  if (!error || typeof error !== 'object') return String(error);
  const failure = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (failure.name === 'TimeoutError') return 'the update source timed out';
  const cause = failure.cause && typeof failure.cause === 'object' ? (failure.cause as { code?: unknown; message?: unknown }) : undefined;
  const detail = cause ? String(cause.code ?? cause.message) : undefined;
  return detail ? `${String(failure.message)}: ${detail}` : String(failure.message);
}

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
      const response = await this.fetchUpdate(this.config.updateCheck.url, { headers, signal: AbortSignal.timeout(UPDATE_CHECK_TIMEOUT_MS) });
      if (response.status >= 300 && response.status < 400) {
        throw new Error(
          `the update source redirected (HTTP ${response.status}); redirects are not followed so the token stays with the configured host: ` +
            'set MONITOR_UPDATE_CHECK_URL to the final address',
        );
      }
      if (!response.ok) throw new Error(`the update source answered HTTP ${response.status}`);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new Error('the update source answered something that is not JSON');
      }
      const latest = latestReleaseOf(body);
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
      const reason = describeFailure(error);
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
