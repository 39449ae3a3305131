import { Injectable } from '@nestjs/common';
import { Octokit } from '@octokit/core';
import { GitHubOctokits } from '../github/github-octokits';

export interface FailedJobLog {
  jobName: string;
  htmlUrl: string | null;
  log: string;
}

/** What the AI features read from (and write to) GitHub: PR diffs, failed job logs, the review comment. */
export abstract class AiGitHubSource {
  /** The unified diff of a pull request. */
  abstract pullRequestDiff(installationId: number | null, fullName: string, number: number): Promise<string>;
  /** The log of the first failed job of a workflow run, or null when no job failed. */
  abstract failedJobLog(installationId: number | null, fullName: string, runId: number): Promise<FailedJobLog | null>;
  /** The id of an existing issue comment containing `marker`, or null. */
  abstract findComment(installationId: number, fullName: string, number: number, marker: string): Promise<number | null>;
  /** Creates the comment, or edits `commentId` in place; answers the comment id. */
  abstract upsertComment(installationId: number, fullName: string, number: number, commentId: number | null, body: string): Promise<number>;
}

interface JobJson {
  id?: unknown;
  name?: unknown;
  conclusion?: unknown;
  html_url?: unknown;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as { status?: number }).status : undefined;
}

/** AiGitHubSource over the process's GitHub App (installation tokens) and the PAT for external repositories (see GitHubOctokits). */
@Injectable()
export class OctokitAiGitHubSource extends AiGitHubSource {
  constructor(private readonly octokits: GitHubOctokits) {
    super();
  }

  async pullRequestDiff(installationId: number | null, fullName: string, number: number): Promise<string> {
    const [owner, repo] = fullName.split('/');
    const response = await (await this.octokit(installationId)).request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      owner,
      repo,
      pull_number: number,
      headers: { accept: 'application/vnd.github.diff' },
    });
    return typeof response.data === 'string' ? response.data : String(response.data ?? '');
  }

  async failedJobLog(installationId: number | null, fullName: string, runId: number): Promise<FailedJobLog | null> {
    const [owner, repo] = fullName.split('/');
    const octokit = await this.octokit(installationId);
    const response = await octokit.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { owner, repo, run_id: runId, filter: 'latest', per_page: 100 });
    const jobs = ((response.data as { jobs?: JobJson[] }).jobs ?? []).filter((job) => job.conclusion === 'failure' || job.conclusion === 'timed_out');
    const job = jobs[0];
    if (!job || typeof job.id !== 'number') return null;
    let log = '';
    try {
      const logs = await octokit.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner, repo, job_id: job.id });
      log = typeof logs.data === 'string' ? logs.data : Buffer.isBuffer(logs.data) ? logs.data.toString('utf8') : String(logs.data ?? '');
    } catch (error) {
      // Logs expire (410) or are not visible (404): diagnose from the job's name alone.
      if (statusOf(error) !== 404 && statusOf(error) !== 410) throw error;
    }
    return { jobName: typeof job.name === 'string' ? job.name : `job ${job.id}`, htmlUrl: typeof job.html_url === 'string' ? job.html_url : null, log };
  }

  async findComment(installationId: number, fullName: string, number: number, marker: string): Promise<number | null> {
    const [owner, repo] = fullName.split('/');
    const octokit = await this.octokit(installationId);
    for (let page = 1; page <= 10; page++) {
      const response = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner, repo, issue_number: number, per_page: 100, page });
      const comments = response.data as Array<{ id: number; body?: string }>;
      const found = comments.find((comment) => comment.body?.includes(marker));
      if (found) return found.id;
      if (comments.length < 100) break;
    }
    return null;
  }

  async upsertComment(installationId: number, fullName: string, number: number, commentId: number | null, body: string): Promise<number> {
    const [owner, repo] = fullName.split('/');
    const octokit = await this.octokit(installationId);
    if (commentId !== null) {
      try {
        await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner, repo, comment_id: commentId, body });
        return commentId;
      } catch (error) {
        // Someone deleted our comment: post a new one.
        if (statusOf(error) !== 404) throw error;
      }
    }
    const created = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner, repo, issue_number: number, body });
    return (created.data as { id: number }).id;
  }

  private async octokit(installationId: number | null): Promise<Octokit> {
    return installationId === null ? this.octokits.pat() : this.octokits.installation(installationId);
  }
}
