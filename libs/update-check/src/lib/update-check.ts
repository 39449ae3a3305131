import { compareVersions, describeReleaseFetchFailure, LatestRelease } from './release-feed';

/** The answer of an update check, as both services' APIs return it. */
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

export interface UpdateCheckOptions {
  /** The running version, compared with the latest release. */
  currentVersion: () => string;
  /** Off: every check answers `enabled: false` with `disabledReason` and asks nobody. */
  enabled: boolean;
  disabledReason: string;
  /** Reads the latest release (throws on any failure; see fetchLatestRelease). */
  latestRelease: () => Promise<LatestRelease>;
  /** How reasons name the feed, e.g. `the update source`. */
  sourceName: string;
  /** Told of each failed check. */
  onFailure?: (reason: string) => void;
}

/**
 * The soft remote update check with its cache: answers from the cache unless forced, asks the feed
 * at most once at a time (concurrent checks share the request), never throws (a failure is
 * `ok: false` with the reason).
 */
export class UpdateCheck {
  private cached?: { result: UpdateCheckResult; expiresAt: number };
  private inFlight?: Promise<UpdateCheckResult>;

  constructor(private readonly options: UpdateCheckOptions) {}

  async check(force: boolean): Promise<UpdateCheckResult> {
    const current = this.options.currentVersion();
    if (!this.options.enabled) return result(current, { enabled: false, reason: this.options.disabledReason });
    if (!force && this.cached && this.cached.expiresAt > Date.now()) return { ...this.cached.result, cached: true };
    this.inFlight ??= this.fetchLatest(current).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchLatest(current: string): Promise<UpdateCheckResult> {
    const checkedAt = new Date().toISOString();
    let answer: UpdateCheckResult;
    try {
      const latest = await this.options.latestRelease();
      const order = compareVersions(latest.version, current);
      answer = result(current, {
        ok: true,
        latest_version: latest.version,
        update_available: order === undefined ? null : order > 0,
        release_url: latest.url,
        published_at: latest.publishedAt,
        checked_at: checkedAt,
        reason: order === undefined ? 'the versions are not both semantic versions; cannot compare' : null,
      });
    } catch (error) {
      const reason = describeReleaseFetchFailure(error, this.options.sourceName);
      this.options.onFailure?.(reason);
      answer = result(current, { ok: false, checked_at: checkedAt, reason: `update check failed: ${reason}` });
    }
    this.cached = { result: answer, expiresAt: Date.now() + (answer.ok ? UPDATE_CHECK_SUCCESS_TTL_MS : UPDATE_CHECK_FAILURE_TTL_MS) };
    return answer;
  }
}

function result(current: string, fields: Partial<UpdateCheckResult>): UpdateCheckResult {
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
