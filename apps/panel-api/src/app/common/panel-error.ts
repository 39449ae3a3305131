import { englishText } from '@shared/panel-texts';
import type { FieldProblem } from '@shared/http-service';

/**
 * Every `code` an error body of panel-api can carry, with the HTTP status the exception filter
 * answers it with (the only place a domain error meets HTTP). The table in
 * docs/panel-api-errors.md lists the same codes (panel-error.spec.ts keeps them equal).
 * `request_refused` is the one code without a fixed status: any other 4xx (a static file's range, ...).
 */
export const ERROR_STATUS = {
  // Any request
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_refused: 400,
  internal_error: 500,
  service_unavailable: 503,
  // Login and the admin's own account
  invalid_credentials: 401,
  totp_required: 401,
  totp_invalid: 401,
  wrong_current_password: 403,
  wrong_totp_code: 400,
  username_taken: 409,
  totp_already_enabled: 409,
  totp_not_set_up: 409,
  totp_not_enabled: 409,
  admin_not_found: 404,
  // Telegram accounts
  account_not_found: 404,
  account_exists: 409,
  needs_relogin: 409,
  login_not_found: 404,
  login_code_invalid: 400,
  check_job_not_found: 404,
  check_job_running: 409,
  check_job_not_running: 409,
  device_not_found: 404,
  current_session: 409,
  flood_wait: 429,
  telegram_target_not_found: 404,
  telegram_unreachable: 502,
  telegram_failed: 502,
  telegram_unavailable: 503,
  telegram_timeout: 504,
  // Sign tasks and runs
  task_not_found: 404,
  task_exists: 409,
  task_busy: 409,
  task_not_runnable: 400,
  run_not_found: 404,
  // Settings, notifications, AI, backups, keep-alive
  bot_not_configured: 400,
  channel_not_configured: 400,
  ai_not_configured: 400,
  webdav_not_configured: 400,
  webdav_target_required: 409,
  backup_busy: 409,
  backup_not_found: 404,
  webdav_failed: 502,
  keepalive_busy: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * A typed error of panel-api: a stable `code` and a message for a person. It knows nothing of HTTP:
 * the global filter (AllExceptionsFilter) answers it as `{statusCode, error, message, code}` with
 * ERROR_STATUS[code]; code elsewhere (the task runner, the batch endpoint, the scheduler) acts on its
 * class or code.
 */
export class PanelError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Seconds to wait before trying again (flood_wait, rate_limited): answered as Retry-After. */
    readonly retryAfterSeconds?: number,
    /** The fields the error concerns, each with the rule it breaks (answered as `fields`). */
    readonly fields?: readonly FieldProblem[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class AccountNotFound extends PanelError {
  constructor(accountName: string) {
    super('account_not_found', `Account ${accountName} not found`);
  }
}

/** A call that cannot be made because the account has no usable session. */
export class NeedsRelogin extends PanelError {
  constructor(accountName: string, reason: string) {
    super('needs_relogin', englishText('runMessage', 'needs_relogin', { account: accountName, reason }));
  }
}

export class TaskNotFound extends PanelError {
  constructor(taskName: string) {
    super('task_not_found', `Task ${taskName} not found`);
  }
}

export class TaskExists extends PanelError {
  constructor(taskName: string) {
    super('task_exists', `Task ${taskName} already exists`);
  }
}

/** A run of the task is still going for every account asked for. */
export class TaskBusy extends PanelError {
  constructor(taskName: string) {
    super('task_busy', `Task ${taskName} is already running`);
  }
}

/** A task that cannot run on demand (a listen task, no account). */
export class TaskNotRunnable extends PanelError {
  constructor(message: string) {
    super('task_not_runnable', message);
  }
}

/** A request the checks of a service refused; the message says what is wrong. */
export class ValidationFailed extends PanelError {
  constructor(message: string, fields?: readonly FieldProblem[]) {
    super('validation_failed', message, undefined, fields);
  }

  /** A refusal that concerns one field of the request: `message` for programs, `sentence` for the person at the form. */
  static ofField(message: string, field: string, rule: string, sentence: string, limits: { min?: number; max?: number } = {}): ValidationFailed {
    return new ValidationFailed(message, [{ field, rule, ...limits, message: sentence }]);
  }
}
