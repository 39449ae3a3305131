import { Injectable } from '@nestjs/common';
import { Conditional, GitHubCallError, GitHubClient, GitHubObject } from './github-client';
import { GitHubOctokits } from './github-octokits';

interface RequestFailure {
  status?: number;
  message?: string;
  /** Set when GitHub answered; octokit reports a failed connection as status 500 without a response. */
  response?: { status?: number; headers?: Record<string, string | undefined> };
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as RequestFailure).status : undefined;
}

/**
 * Names the reason of a failed GitHub call: no answer at all (DNS, refused, reset, timeout), the rate
 * limit (403 or 429 with `x-ratelimit-remaining: 0` or `retry-after`), a refused token (401, or a 403
 * that is not the rate limit), or GitHub's own error (5xx).
 */
export function classifyGitHubFailure(error: unknown, now: Date = new Date()): GitHubCallError {
  const failure = (typeof error === 'object' && error !== null ? error : {}) as RequestFailure;
  const response = failure.response;
  if (!response || typeof response.status !== 'number') {
    return new GitHubCallError('unreachable', 'GitHub could not be reached', undefined, undefined, { cause: error });
  }
  const status = response.status;
  const headers = response.headers ?? {};
  const retryAfter = headers['retry-after'];
  const remaining = headers['x-ratelimit-remaining'];
  const reset = Number(headers['x-ratelimit-reset']);
  if (status === 429 || (status === 403 && (remaining === '0' || retryAfter !== undefined || /rate limit/i.test(failure.message ?? '')))) {
    let seconds: number | undefined;
    if (retryAfter !== undefined && /^\d+$/.test(retryAfter)) seconds = Number(retryAfter);
    else if (Number.isFinite(reset) && reset > 0) seconds = Math.max(1, Math.ceil(reset - now.getTime() / 1000));
    return new GitHubCallError('rate_limited', 'GitHub\u2019s rate limit is reached', seconds, status, { cause: error });
  }
  if (status === 401 || status === 403) return new GitHubCallError('token_rejected', 'GitHub refused the token', undefined, status, { cause: error });
  return new GitHubCallError('github_error', `GitHub answered HTTP ${status}`, undefined, status, { cause: error });
}

/** GitHubClient over the process's GitHub App (installation tokens) and the PAT (see GitHubOctokits). */
@Injectable()
export class OctokitGitHubClient extends GitHubClient {
  constructor(private readonly octokits: GitHubOctokits) {
    super();
  }

  appConfigured(): Promise<boolean> {
    return this.octokits.appConfigured();
  }

  async listInstallations(): Promise<GitHubObject[]> {
    const app = await this.octokits.app();
    const installations: GitHubObject[] = [];
    for await (const { installation } of app.eachInstallation.iterator()) installations.push(installation as unknown as GitHubObject);
    return installations;
  }

  async listInstallationRepositories(installationId: number): Promise<GitHubObject[]> {
    const app = await this.octokits.app();
    const repositories: GitHubObject[] = [];
    for await (const { repository } of app.eachRepository.iterator({ installationId })) repositories.push(repository as unknown as GitHubObject);
    return repositories;
  }

  async listOpenIssues(installationId: number | null, fullName: string): Promise<GitHubObject[]> {
    const octokit = installationId ? await this.octokits.installation(installationId) : this.octokits.pat();
    const [owner, repo] = fullName.split('/');
    const items: GitHubObject[] = [];
    for (let page = 1; page <= 10; page++) {
      let response;
      try {
        response = await octokit.request('GET /repos/{owner}/{repo}/issues', { owner, repo, state: 'open', per_page: 100, page });
      } catch (error) {
        // 410: issues are turned off for the repository; 404: no issues endpoint for it.
        if (statusOf(error) === 410 || statusOf(error) === 404) return items;
        throw error;
      }
      const batch = response.data as unknown as GitHubObject[];
      items.push(...batch);
      if (batch.length < 100) break;
    }
    return items;
  }

  async getPublicRepository(fullName: string): Promise<GitHubObject | null> {
    const [owner, repo] = fullName.split('/');
    try {
      const response = await this.octokits.pat().request('GET /repos/{owner}/{repo}', { owner, repo });
      const data = response.data as unknown as GitHubObject;
      return data['private'] === true ? null : data;
    } catch (error) {
      if (statusOf(error) === 404 && (error as RequestFailure).response) return null;
      throw classifyGitHubFailure(error);
    }
  }

  async listStarred(username: string, etag: string | null): Promise<Conditional<GitHubObject[]>> {
    return this.conditional(etag, async (headers) => {
      const response = await this.octokits.pat().request('GET /users/{username}/starred', { username, per_page: 100, headers });
      return { etag: response.headers.etag ?? null, value: response.data as unknown as GitHubObject[] };
    });
  }

  async latestRelease(fullName: string, etag: string | null): Promise<Conditional<GitHubObject | null>> {
    const [owner, repo] = fullName.split('/');
    try {
      return await this.conditional(etag, async (headers) => {
        const response = await this.octokits.pat().request('GET /repos/{owner}/{repo}/releases/latest', { owner, repo, headers });
        return { etag: response.headers.etag ?? null, value: response.data as unknown as GitHubObject };
      });
    } catch (error) {
      if (statusOf(error) === 404) return { notModified: false, etag: null, value: null };
      throw error;
    }
  }

  private async conditional<T>(
    etag: string | null,
    call: (headers: Record<string, string>) => Promise<{ etag: string | null; value: T }>,
  ): Promise<Conditional<T>> {
    try {
      const result = await call(etag ? { 'if-none-match': etag } : {});
      return { notModified: false, ...result };
    } catch (error) {
      // A 304 costs no rate limit: nothing changed since the ETag.
      if (statusOf(error) === 304) return { notModified: true };
      throw error;
    }
  }
}
