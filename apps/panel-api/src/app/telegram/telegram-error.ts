import { englishText } from '@shared/panel-texts';

/** What went wrong, in the terms the rest of panel-api acts on. */
export type TelegramErrorKind =
  /** The session no longer works (revoked, unregistered key, deactivated user): the account needs a new login. */
  | 'session_invalid'
  /** Telegram asks to wait `seconds` before the next request. */
  | 'flood_wait'
  /** Telegram (or the proxy) could not be reached or the connection dropped. */
  | 'connection_error'
  /** The call did not finish within its deadline. */
  | 'timeout'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** API id/hash are not configured, so no client can be created. */
  | 'not_configured'
  /** Wrong phone number, code or 2FA password, or an expired code. */
  | 'invalid_credentials'
  /** A chat, message or button that does not exist. */
  | 'not_found'
  /** A login id that is unknown or already finished. */
  | 'login_not_found'
  /** Any other error answered by Telegram (`rpcMessage` has its code). */
  | 'rpc_error';

export class TelegramError extends Error {
  constructor(
    readonly kind: TelegramErrorKind,
    message: string,
    readonly details: { seconds?: number; rpcMessage?: string } = {},
  ) {
    super(message);
    this.name = 'TelegramError';
  }

  get seconds(): number | undefined {
    return this.details.seconds;
  }

  static floodWait(seconds: number, rpcMessage = `FLOOD_WAIT_${seconds}`): TelegramError {
    return new TelegramError('flood_wait', englishText('runMessage', 'telegram_flood_wait', { seconds }), { seconds, rpcMessage });
  }

  static sessionInvalid(rpcMessage: string): TelegramError {
    return new TelegramError('session_invalid', englishText('runMessage', 'telegram_session_invalid', { reason: rpcMessage }), { rpcMessage });
  }

  static timeout(milliseconds: number): TelegramError {
    return new TelegramError('timeout', englishText('runMessage', 'telegram_timeout', { seconds: Math.round(milliseconds / 100) / 10 }));
  }

  static aborted(): TelegramError {
    return new TelegramError('aborted', englishText('runMessage', 'telegram_aborted'));
  }
}

export function isTelegramError(error: unknown, kind?: TelegramErrorKind): error is TelegramError {
  return error instanceof TelegramError && (kind === undefined || error.kind === kind);
}
