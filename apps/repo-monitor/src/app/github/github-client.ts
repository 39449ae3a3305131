/** A GitHub REST object as JSON (repository, issue, release…); read it with PayloadReader. */
export type GitHubObject = Record<string, unknown>;

export type Conditional<T> = { notModified: true } | { notModified: false; etag: string | null; value: T };

/** The credentials the GitHub App client works with (environment or console settings). */
export interface GitHubAppCredentials {
  appId: string;
  privateKey: string;
  apiUrl: string;
}

/** What repo-monitor needs from GitHub. Production: @octokit/app; tests point it at a local server. */
export abstract class GitHubClient {
  /** Whether app id and private key are available. */
  abstract appConfigured(): Promise<boolean>;
  /** Every installation of the app. */
  abstract listInstallations(): Promise<GitHubObject[]>;
  /** Repositories the installation can access (with an installation token). */
  abstract listInstallationRepositories(installationId: number): Promise<GitHubObject[]>;
  /** Open issues and pull requests of a repository (issues list, PRs carry `pull_request`). */
  abstract listOpenIssues(installationId: number | null, fullName: string): Promise<GitHubObject[]>;
  /** A public repository through MONITOR_EXTERNAL_PAT; null when it does not exist or is not public. */
  abstract getPublicRepository(fullName: string): Promise<GitHubObject | null>;
  /** The user's starred repositories (first 100), with If-None-Match. */
  abstract listStarred(username: string, etag: string | null): Promise<Conditional<GitHubObject[]>>;
  /** A repository's latest release, with If-None-Match; value null when it has none. */
  abstract latestRelease(fullName: string, etag: string | null): Promise<Conditional<GitHubObject | null>>;
}

/** Why a call to GitHub failed, as far as a person can act on it. */
export type GitHubFailureReason = 'unreachable' | 'rate_limited' | 'token_rejected' | 'github_error';

/** A call to GitHub that failed for a reason other than "no such thing" (which the methods answer as null). */
export class GitHubCallError extends Error {
  constructor(
    readonly reason: GitHubFailureReason,
    message: string,
    /** Seconds until GitHub takes calls again (rate_limited only), when GitHub said. */
    readonly retryAfterSeconds?: number,
    /** GitHub's HTTP status, when it answered at all. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GitHubCallError';
  }
}
