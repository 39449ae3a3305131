/** panel-api's JSON error body: `{statusCode, error, message, code}` (a stable code such as `task_busy`). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code?: string;
}

/** repo-monitor's JSON error body: `{error_code, message}` (a stable code such as `rate_limited`). */
export interface CodedErrorBody {
  error_code: string;
  message: string;
}

/**
 * One field of a refused request (panel-api's `fields`, repo-monitor's `details.fields`): the field
 * as the API names it, the rule it breaks (translated by the web apps), its limits, and the
 * service's English sentence (shown only when the app has no words for the rule).
 */
export interface FieldProblem {
  field: string;
  rule: string;
  min?: number;
  max?: number;
  message: string;
}

/** At most this many field problems are read from one answer. */
const MAX_FIELD_PROBLEMS = 50;

/** The well-formed entries of a `fields` list from the network (anything else is dropped). */
export function fieldProblemsFrom(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  const problems: FieldProblem[] = [];
  for (const entry of value.slice(0, MAX_FIELD_PROBLEMS)) {
    if (!entry || typeof entry !== 'object') continue;
    const { field, rule, min, max, message } = entry as Record<string, unknown>;
    if (typeof field !== 'string' || typeof rule !== 'string' || typeof message !== 'string') continue;
    const problem: FieldProblem = { field: field.slice(0, 200), rule: rule.slice(0, 64), message: message.slice(0, 500) };
    if (typeof min === 'number' && Number.isFinite(min)) problem.min = min;
    if (typeof max === 'number' && Number.isFinite(max)) problem.max = max;
    problems.push(problem);
  }
  return problems;
}

/**
 * A failed API call: the HTTP status, the service's message, its error code when it sends one
 * (panel-api's `code`, repo-monitor's `error_code`), and for 429 the Retry-After seconds.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly requestId?: string,
    readonly code?: string,
    /** repo-monitor's `details` object (e.g. `{totp_required: true}` on a login that needs the code). */
    readonly details?: Readonly<Record<string, unknown>>,
    /** On a 400: what each field of the request breaks (empty when the service named none). */
    readonly fields: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (!value || typeof value !== 'object') return false;
  const body = value as Record<string, unknown>;
  return typeof body['statusCode'] === 'number' && typeof body['message'] === 'string';
}

export function isCodedErrorBody(value: unknown): value is CodedErrorBody {
  if (!value || typeof value !== 'object') return false;
  const body = value as Record<string, unknown>;
  return typeof body['error_code'] === 'string' && typeof body['message'] === 'string';
}

/** Builds an ApiError from a response and its parsed body (any shape; text bodies are kept short). */
export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const retryHeader = response.headers.get('retry-after');
  const retryAfter = retryHeader !== null && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isCodedErrorBody(body)) {
    const raw = (body as { details?: unknown }).details;
    const details = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
    return new ApiError(response.status, body.message, retryAfter, requestId, body.error_code, details, fieldProblemsFrom(details?.['fields']));
  }
  if (isApiErrorBody(body)) {
    const code = typeof body.code === 'string' ? body.code : undefined;
    return new ApiError(response.status, body.message, retryAfter, requestId, code, undefined, fieldProblemsFrom((body as { fields?: unknown }).fields));
  }
  const message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 300) : response.statusText || `HTTP ${response.status}`;
  return new ApiError(response.status, message, retryAfter, requestId);
}

/** A translated text for an error code, or undefined when there is none for that code. */
export type ErrorCodeText = (code: string, error: ApiError) => string | undefined;

/**
 * The message to show a person for any thrown value: the text `codeText` has for the error's code
 * (useErrorMessage looks it up in the app's translations), else the service's own message.
 */
export function errorMessage(error: unknown, codeText?: ErrorCodeText): string {
  if (error instanceof ApiError) return (error.code && codeText?.(error.code, error)) || error.message;
  if (error instanceof TypeError) return 'Network error: the service did not answer';
  if (error instanceof Error) return error.message;
  return String(error);
}
