/** The newest published release, as a GitHub-style release feed describes it. */
export interface LatestRelease {
  version: string;
  url: string | null;
  publishedAt: string | null;
}

interface ReleaseJson {
  tag_name?: unknown;
  html_url?: unknown;
  published_at?: unknown;
  draft?: unknown;
  prerelease?: unknown;
}

function asRelease(value: unknown): ReleaseJson | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as ReleaseJson) : undefined;
}

/**
 * The newest release in a GitHub-style answer: `/releases/latest` (one object) or `/releases` (a
 * list, of which the first published non-prerelease counts). Throws when there is none.
 */
export function latestReleaseOf(body: unknown, sourceName = 'the release feed'): LatestRelease {
  const release = Array.isArray(body) ? body.map(asRelease).find((item) => item && item.draft !== true && item.prerelease !== true) : asRelease(body);
  const tag = release && typeof release.tag_name === 'string' ? release.tag_name : undefined;
  if (!release || !tag) throw new Error(`${sourceName} has no release with a tag_name`);
  return {
    version: tag.replace(/^v/i, ''),
    url: typeof release.html_url === 'string' ? release.html_url : null,
    publishedAt: typeof release.published_at === 'string' ? release.published_at : null,
  };
}

function parseVersion(text: string): { core: [number, number, number]; prerelease: string | undefined } | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/**
 * Semantic-version order of two versions: -1 when `a` is older, 0 when equal, 1 when newer.
 * `undefined` when either is not a semantic version, because then "newer" cannot be decided honestly.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return undefined;
  for (let index = 0; index < 3; index += 1) {
    const difference = left.core[index] - right.core[index];
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.prerelease === right.prerelease) return 0;
  // A release is newer than any of its prereleases.
  if (left.prerelease === undefined) return 1;
  if (right.prerelease === undefined) return -1;
  return left.prerelease.localeCompare(right.prerelease, 'en', { numeric: true }) < 0 ? -1 : 1;
}

/** The one GET of a release check; production passes fetch (with a proxy dispatcher where needed). */
export type ReleaseFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal; redirect: 'manual' }) => Promise<Response>;

export interface LatestReleaseRequest {
  url: string;
  headers: Record<string, string>;
  /** How messages name the feed, e.g. `the update source`. */
  sourceName?: string;
  /** Appended to the message about a redirect, e.g. which variable to point at the final address. */
  redirectAdvice?: string;
  timeoutMs?: number;
  fetch?: ReleaseFetch;
}

const DEFAULT_RELEASE_TIMEOUT_MS = 10_000;

/**
 * Fetches and parses the latest release. Redirects are never followed (a request that carries a
 * token must not travel to wherever a 3xx points); they, HTTP errors, non-JSON answers and
 * timeouts throw an Error whose message says what happened (see describeReleaseFetchFailure).
 */
export async function fetchLatestRelease(request: LatestReleaseRequest): Promise<LatestRelease> {
  const sourceName = request.sourceName ?? 'the release feed';
  const send: ReleaseFetch = request.fetch ?? ((url, init) => fetch(url, init));
  const response = await send(request.url, {
    headers: request.headers,
    signal: AbortSignal.timeout(request.timeoutMs ?? DEFAULT_RELEASE_TIMEOUT_MS),
    redirect: 'manual',
  });
  if (response.status >= 300 && response.status < 400) {
    throw new Error(`${sourceName} redirected (HTTP ${response.status}); redirects are not followed${request.redirectAdvice ? `: ${request.redirectAdvice}` : ''}`);
  }
  if (!response.ok) throw new Error(`${sourceName} answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`${sourceName} answered something that is not JSON`);
  }
  return latestReleaseOf(body, sourceName);
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

// Duck-typed: errors from undici's fetch come from another realm under Jest, so instanceof fails.
function asErrorLike(value: unknown): ErrorLike | undefined {
  return value && typeof value === 'object' && 'message' in value ? (value as ErrorLike) : undefined;
}

/** A failure of fetchLatestRelease in words; fetch hides the useful part (ECONNREFUSED, a DNS error) in `cause`. */
export function describeReleaseFetchFailure(error: unknown, sourceName = 'the release feed'): string {
  const failure = asErrorLike(error);
  if (!failure) return String(error);
  if (failure.name === 'TimeoutError') return `${sourceName} timed out`;
  const cause = asErrorLike(failure.cause);
  const detail = cause ? String(cause.code ?? cause.message) : undefined;
  return detail ? `${String(failure.message)}: ${detail}` : String(failure.message);
}
