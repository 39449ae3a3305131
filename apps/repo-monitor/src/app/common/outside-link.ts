/** The longest link a record keeps: the `html_url` columns are varchar(512). */
export const OUTSIDE_LINK_MAX_LENGTH = 512;

/**
 * Which links from GitHub (webhook payloads and API answers) the service stores, shows and sends on.
 * Every byte of a payload is hostile, and a link ends up in an anchor in the console and in a
 * button of a notification, so only `https:` is kept. Plain `http:` is kept only when the configured
 * GitHub web URL is itself http (a GitHub Enterprise Server without TLS, or a local stand-in), and
 * then only for that same origin: an http link anywhere else is no more GitHub's than a
 * `javascript:` one. A link that is not kept is dropped (the caller falls back to the repository's
 * own page), never repaired.
 */
export class OutsideLinkPolicy {
  private readonly webUrl: string;
  private readonly httpOrigin: string | undefined;

  constructor(githubWebUrl: string) {
    this.webUrl = githubWebUrl.replace(/\/+$/, '');
    const web = new URL(this.webUrl);
    this.httpOrigin = web.protocol === 'http:' ? web.origin : undefined;
  }

  /** The link as the WHATWG parser (the browser's) reads it, or undefined when it is not one to keep. */
  accept(value: unknown): string | undefined {
    if (typeof value !== 'string' || value.length === 0 || value.length > OUTSIDE_LINK_MAX_LENGTH) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return undefined;
    }
    // A user name or password in a link is a phishing shape (`https://github.com@evil.example/`).
    if (url.username || url.password) return undefined;
    const kept = url.protocol === 'https:' || (url.protocol === 'http:' && this.httpOrigin !== undefined && url.origin === this.httpOrigin);
    if (!kept || url.href.length > OUTSIDE_LINK_MAX_LENGTH) return undefined;
    return url.href;
  }

  /** A repository's page on the configured GitHub: the fallback when a payload has no usable link. */
  repositoryPage(fullName: string): string {
    return `${this.webUrl}/${fullName.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** A pull request's page on the configured GitHub. */
  pullRequestPage(fullName: string, number: number): string {
    return `${this.repositoryPage(fullName)}/pull/${number}`;
  }
}
