/** The newest published release of the panel, as a release feed describes it. */
export interface LatestRelease {
  version: string;
  url: string | null;
  publishedAt: string | null;
}

/** Port to the code-hosting release feed; the production one speaks the GitHub releases API. */
export interface ReleaseFeed {
  latest(): Promise<LatestRelease>;
}

export const RELEASE_FEED = Symbol('RELEASE_FEED');

interface GitHubRelease {
  tag_name?: unknown;
  name?: unknown;
  html_url?: unknown;
  published_at?: unknown;
  draft?: unknown;
  prerelease?: unknown;
}

const FEED_TIMEOUT_MS = 10_000;

function asRelease(value: unknown): GitHubRelease | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as GitHubRelease) : undefined;
}

/**
 * Reads `GET <url>` of a GitHub-style feed: either `/releases/latest` (one object) or `/releases`
 * (a list, of which the first published non-prerelease counts).
 */
export class HttpReleaseFeed implements ReleaseFeed {
  constructor(
    private readonly url: string,
    private readonly userAgent: string,
  ) {}

  async latest(): Promise<LatestRelease> {
    const response = await fetch(this.url, {
      headers: { accept: 'application/vnd.github+json', 'user-agent': this.userAgent },
      signal: AbortSignal.timeout(FEED_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`release feed answered HTTP ${response.status}`);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new Error('release feed answered something that is not JSON');
    }
    const release = Array.isArray(body)
      ? body.map(asRelease).find((item) => item && item.draft !== true && item.prerelease !== true)
      : asRelease(body);
    const tag = release && typeof release.tag_name === 'string' ? release.tag_name : undefined;
    if (!release || !tag) throw new Error('release feed has no release with a tag_name');
    return {
      version: tag.replace(/^v/i, ''),
      url: typeof release.html_url === 'string' ? release.html_url : null,
      publishedAt: typeof release.published_at === 'string' ? release.published_at : null,
    };
  }
}

interface ParsedVersion {
  core: [number, number, number];
  prerelease: string | undefined;
}

function parseVersion(text: string): ParsedVersion | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/**
 * Semantic-version order of two versions: negative when `a` is older. `undefined` when either is
 * not a semantic version, because then "newer" cannot be decided honestly.
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
