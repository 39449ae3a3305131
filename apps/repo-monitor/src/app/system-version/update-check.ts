import type { Dispatcher } from 'undici';

/** What the update check sends its one GET through; tests provide one that reaches a local server. */
export type UpdateCheckFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

export const UPDATE_CHECK_FETCH = Symbol('UPDATE_CHECK_FETCH');

/**
 * The production transport: fetch through the outbound dispatcher (HTTPS_PROXY / NO_PROXY).
 * Redirects are never followed: the request may carry MONITOR_UPDATE_CHECK_TOKEN, which must not
 * travel to wherever a 3xx points; the caller reports a 3xx as a soft failure.
 */
export function dispatcherFetch(dispatcher: Dispatcher | undefined): UpdateCheckFetch {
  return (url, init) => fetch(url, { ...init, redirect: 'manual', ...(dispatcher ? { dispatcher } : {}) } as RequestInit);
}

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

/** The newest release in a GitHub-style answer: `/releases/latest` (one object) or `/releases` (a list). */
export function latestReleaseOf(body: unknown): LatestRelease {
  const release = Array.isArray(body) ? body.map(asRelease).find((item) => item && item.draft !== true && item.prerelease !== true) : asRelease(body);
  const tag = release && typeof release.tag_name === 'string' ? release.tag_name : undefined;
  if (!release || !tag) throw new Error('the update source has no release with a tag_name');
  return {
    version: tag.replace(/^v/i, ''),
    url: typeof release.html_url === 'string' ? release.html_url : null,
    publishedAt: typeof release.published_at === 'string' ? release.published_at : null,
  };
}

function parseVersion(text: string): { core: [number, number, number]; prerelease?: string } | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/** Semantic-version order (negative when `a` is older); undefined when either is not a semantic version. */
export function compareVersions(a: string, b: string): number | undefined {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return undefined;
  for (let index = 0; index < 3; index++) if (left.core[index] !== right.core[index]) return left.core[index] - right.core[index];
  if (left.prerelease === right.prerelease) return 0;
  if (!left.prerelease) return 1;
  if (!right.prerelease) return -1;
  return left.prerelease < right.prerelease ? -1 : 1;
}
