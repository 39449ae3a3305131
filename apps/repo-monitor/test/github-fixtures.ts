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
