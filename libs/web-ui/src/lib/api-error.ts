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
    const details = (body as { details?: unknown }).details;
    return new ApiError(response.status, body.message, retryAfter, requestId, body.error_code, details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined);
  }
  if (isApiErrorBody(body)) return new ApiError(response.status, body.message, retryAfter, requestId, typeof body.code === 'string' ? body.code : undefined);
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
