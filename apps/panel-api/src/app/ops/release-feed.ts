import { fetchLatestRelease, LatestRelease } from '@shared/update-check';

/** Port to the code-hosting release feed; the production one speaks the GitHub releases API. */
export interface ReleaseFeed {
  latest(): Promise<LatestRelease>;
}

export const RELEASE_FEED = Symbol('RELEASE_FEED');

/**
 * Reads `GET <url>` of a GitHub-style feed: either `/releases/latest` (one object) or `/releases`
 * (a list, of which the first published non-prerelease counts).
 */
export class HttpReleaseFeed implements ReleaseFeed {
  constructor(
    private readonly url: string,
    private readonly userAgent: string,
  ) {}

  latest(): Promise<LatestRelease> {
    return fetchLatestRelease({
      url: this.url,
      headers: { accept: 'application/vnd.github+json', 'user-agent': this.userAgent },
      sourceName: 'the release feed',
      redirectAdvice: 'set APP_UPDATE_CHECK_URL to the final address',
    });
  }
}
