import { MonitorError } from '../common/monitor-error';

export interface DeliverySummary {
  action: string | null;
  installationId: number | null;
  repositoryFullName: string | null;
  /** The JSON text of the delivery, exactly as GitHub sent it. */
  payload: string;
}

/**
 * Reads a delivery whose signature was already verified: GitHub sends JSON, or a form whose
 * `payload` field is the JSON. JSON.parse keeps keys such as `__proto__` and `constructor` as plain
 * data (own properties; no prototype is touched), so a signed body that has them is stored as sent.
 */
export function summariseDelivery(rawBody: Buffer, contentType: string | undefined): DeliverySummary {
  let payload = rawBody.toString('utf8');
  if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const field = new URLSearchParams(payload).get('payload');
    if (field === null) throw new MonitorError('validation_failed', 'form deliveries need a payload field');
    payload = field;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new MonitorError('validation_failed', 'the delivery body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new MonitorError('validation_failed', 'the delivery body must be a JSON object');
  const record = parsed as Record<string, unknown>;
  const installation = ownField(record, 'installation');
  const repository = ownField(record, 'repository');
  const action = ownField(record, 'action');
  const installationId = isRecord(installation) ? ownField(installation, 'id') : undefined;
  const fullName = isRecord(repository) ? ownField(repository, 'full_name') : undefined;
  return {
    action: typeof action === 'string' ? action.slice(0, 64) : null,
    installationId: typeof installationId === 'number' ? installationId : null,
    repositoryFullName: typeof fullName === 'string' ? fullName.slice(0, 255) : null,
    payload,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

function ownField(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
