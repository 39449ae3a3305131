import { createHmac, randomUUID } from 'node:crypto';

export const INBOUND_SECRET = 'inbound-secret-current';
export const INBOUND_PREVIOUS_SECRET = 'inbound-secret-previous';
export const OUTBOUND_SECRET = 'outbound-signing-secret-0123456789';

/** A delivery signed as GitHub signs it: X-Hub-Signature-256 over the exact body bytes. */
export async function sendDelivery(
  baseUrl: string,
  event: string,
  payload: unknown,
  options: { secret?: string; deliveryId?: string; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; deliveryId: string }> {
  const deliveryId = options.deliveryId ?? randomUUID();
  const body = options.rawBody ?? JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', options.secret ?? INBOUND_SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${baseUrl}/webhooks/github`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': deliveryId,
      'x-hub-signature-256': signature,
      ...(options.headers ?? {}),
    },
    body,
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed, headers: response.headers, deliveryId };
}

export function repositoryPayload(fullName: string, id: number): Record<string, unknown> {
  return { id, full_name: fullName, name: fullName.split('/')[1], private: false, html_url: `https://github.com/${fullName}`, owner: { login: fullName.split('/')[0] } };
}

export function installationCreated(installationId: number, account: string, repositories: Array<{ full_name: string; id: number }>): Record<string, unknown> {
  return {
    action: 'created',
    installation: { id: installationId, account: { login: account, type: 'Organization' }, repository_selection: 'selected' },
    repositories: repositories.map((repository) => ({ id: repository.id, full_name: repository.full_name, name: repository.full_name.split('/')[1], private: false })),
    sender: { login: account },
  };
}

export function issueEvent(
  action: string,
  installationId: number,
  repository: { full_name: string; id: number },
  number: number,
  title: string,
  updatedAt = new Date().toISOString(),
): Record<string, unknown> {
  return {
    action,
    installation: { id: installationId },
    repository: repositoryPayload(repository.full_name, repository.id),
    issue: {
      number,
      title,
      state: action === 'closed' ? 'closed' : 'open',
      html_url: `https://github.com/${repository.full_name}/issues/${number}`,
      user: { login: 'reporter' },
      updated_at: updatedAt,
    },
    sender: { login: 'reporter' },
  };
}

/** The same delivery as GitHub sends it with content type `application/x-www-form-urlencoded` (`payload=<json>`). */
export function formDelivery(baseUrl: string, event: string, payload: unknown, options: { secret?: string; deliveryId?: string } = {}) {
  const rawBody = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return sendDelivery(baseUrl, event, payload, { ...options, rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

type RepositoryRef = { full_name: string; id: number };

function base(installationId: number | null, repository: RepositoryRef, action: string): Record<string, unknown> {
  return {
    action,
    ...(installationId === null ? {} : { installation: { id: installationId } }),
    repository: repositoryPayload(repository.full_name, repository.id),
    sender: { login: 'octocat' },
  };
}

export function workflowRunEvent(
  installationId: number,
  repository: RepositoryRef,
  run: { id: number; conclusion: string | null; action?: string; name?: string; branch?: string; attempt?: number; updatedAt?: string },
): Record<string, unknown> {
  const action = run.action ?? 'completed';
  return {
    ...base(installationId, repository, action),
    workflow_run: {
      id: run.id,
      name: run.name ?? 'CI',
      head_branch: run.branch ?? 'main',
      head_sha: `sha${run.id}`,
      event: 'push',
      status: action === 'completed' ? 'completed' : 'in_progress',
      conclusion: run.conclusion,
      run_number: run.id % 1000,
      run_attempt: run.attempt ?? 1,
      html_url: `https://github.com/${repository.full_name}/actions/runs/${run.id}`,
      updated_at: run.updatedAt ?? new Date().toISOString(),
    },
    workflow: { name: run.name ?? 'CI' },
  };
}

export function securityAlertEvent(
  event: 'dependabot_alert' | 'code_scanning_alert' | 'secret_scanning_alert',
  installationId: number,
  repository: RepositoryRef,
  number: number,
  action: string,
  updatedAt = new Date().toISOString(),
): Record<string, unknown> {
  const alert: Record<string, unknown> = {
    number,
    state: action === 'created' || action.startsWith('reopen') ? 'open' : 'closed',
    html_url: `https://github.com/${repository.full_name}/security/${event}/${number}`,
    updated_at: updatedAt,
  };
  if (event === 'dependabot_alert') {
    alert['security_advisory'] = { severity: 'high', summary: 'Prototype pollution in lodash' };
    alert['dependency'] = { package: { name: 'lodash' } };
  } else if (event === 'code_scanning_alert') {
    alert['rule'] = { security_severity_level: 'medium', description: 'SQL injection' };
  } else {
    alert['secret_type'] = 'github_personal_access_token';
    alert['secret_type_display_name'] = 'GitHub Personal Access Token';
  }
  return { ...base(installationId, repository, action), alert };
}

export function starEvent(installationId: number, repository: RepositoryRef, action: 'created' | 'deleted', login: string, starredAt: string | null): Record<string, unknown> {
  return { ...base(installationId, repository, action), starred_at: starredAt, sender: { login } };
}

export function watchEvent(installationId: number, repository: RepositoryRef, login: string): Record<string, unknown> {
  return { ...base(installationId, repository, 'started'), sender: { login } };
}

export function releaseEvent(installationId: number, repository: RepositoryRef, action: string, release: { id: number; tag: string }): Record<string, unknown> {
  return {
    ...base(installationId, repository, action),
    release: {
      id: release.id,
      tag_name: release.tag,
      name: `Version ${release.tag}`,
      body: 'Fixes and features',
      prerelease: false,
      html_url: `https://github.com/${repository.full_name}/releases/tag/${release.tag}`,
      published_at: '2024-06-01T00:00:00Z',
    },
  };
}

export function pullRequestEvent(installationId: number, repository: RepositoryRef, number: number, action: string, options: { merged?: boolean; updatedAt?: string } = {}): Record<string, unknown> {
  return {
    ...base(installationId, repository, action),
    pull_request: {
      number,
      title: `Change ${number}`,
      state: action === 'closed' ? 'closed' : 'open',
      merged: options.merged ?? false,
      draft: false,
      html_url: `https://github.com/${repository.full_name}/pull/${number}`,
      user: { login: 'contributor' },
      updated_at: options.updatedAt ?? new Date().toISOString(),
    },
  };
}
