import { HttpException } from '@nestjs/common';

/** Error codes of the API, each with its HTTP status (repo-monitor-details.md, Errors). */
export const ERROR_STATUS = {
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_signature: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  conflict: 409,
  ai_field_locked: 409,
  github_field_locked: 409,
  github_app_not_configured: 409,
  validation_failed: 400,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  encryption_unavailable: 503,
  webhook_not_configured: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error body repo-monitor answers with. */
export interface MonitorErrorBody {
  error_code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A typed domain error: code, message and optional details; the status follows from the code. */
export class MonitorError extends HttpException {
  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super({ error_code: errorCode, message, details }, ERROR_STATUS[errorCode]);
  }
}
