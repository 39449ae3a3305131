import { ConflictException, HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { TelegramError } from '../telegram/telegram-error';
import { TELEGRAM_GATEWAY, TelegramGateway, TelegramSession } from '../telegram/telegram-gateway';
import { AccountStore, AccountUserInfo, CheckCode } from './account-store';

export type AccountEvent =
  | { type: 'removed'; accountName: string }
  | { type: 'logged_in'; accountName: string }
  /** `newlyInvalid` is false when the account was flagged already (a repeated finding). */
  | { type: 'session_invalid'; accountName: string; message: string; newlyInvalid: boolean };

export type AccountEventListener = (event: AccountEvent) => void | Promise<void>;

/** A call that cannot be made because the account has no usable session; the API answers 409. */
export class NeedsReloginException extends ConflictException {
  constructor(accountName: string, reason: string) {
    super(`Account ${accountName} needs_relogin: ${reason}. Log in again (phone or QR login).`);
  }
}

/** The check result code for a failure, as the details file names them. */
export function checkCodeFor(error: unknown): CheckCode {
  if (!(error instanceof TelegramError)) return 'STATUS_CHECK_FAILED';
  switch (error.kind) {
    case 'session_invalid':
      return 'ACCOUNT_SESSION_INVALID';
    case 'flood_wait':
      return 'FLOOD_WAIT';
    case 'connection_error':
      return 'CONNECTION_ERROR';
    case 'timeout':
    case 'aborted':
      return 'TIMEOUT';
    case 'not_configured':
      return 'CLIENT_INIT_FAILED';
    default:
      return 'STATUS_CHECK_FAILED';
  }
}

/** Turns a TelegramError into the HTTP answer of an API route (never a 500 for Telegram's own failures). */
export function httpErrorFor(error: TelegramError): HttpException {
  switch (error.kind) {
    case 'flood_wait':
      return new HttpException(
        { message: `${error.message}`, retryAfterSeconds: error.seconds },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    case 'timeout':
      return new HttpException(error.message, HttpStatus.GATEWAY_TIMEOUT);
    case 'connection_error':
      return new HttpException(error.message, HttpStatus.BAD_GATEWAY);
    case 'not_configured':
      return new HttpException(error.message, HttpStatus.SERVICE_UNAVAILABLE);
    case 'not_found':
      return new NotFoundException(error.message);
    case 'login_not_found':
      return new NotFoundException(error.message);
    case 'invalid_credentials':
      return new HttpException(error.message, HttpStatus.BAD_REQUEST);
    case 'aborted':
      return new HttpException(error.message, HttpStatus.SERVICE_UNAVAILABLE);
    default:
      return new HttpException(error.message, HttpStatus.BAD_GATEWAY);
  }
}

export function userInfoOf(user: { id: string; username?: string; firstName?: string; phone?: string }): AccountUserInfo {
  return { id: user.id, username: user.username ?? null, first_name: user.firstName ?? null, phone: user.phone ?? null };
}

/**
 * Acting as an account: resolves its stored session and proxy, runs a TelegramGateway call, and
 * marks the account `needs_relogin` when Telegram says the session is gone. Sign tasks, listeners,
 * devices and keep-alive all go through here.
 */
@Injectable()
export class AccountSessionsService {
  private readonly listeners = new Set<AccountEventListener>();

  constructor(
    private readonly store: AccountStore,
    @Inject(TELEGRAM_GATEWAY) readonly gateway: TelegramGateway,
  ) {}

  /** The session to pass to the gateway; 404 for an unknown account, 409 when it has no usable session. */
  sessionFor(accountName: string): TelegramSession {
    const record = this.store.get(accountName);
    if (!record) throw new NotFoundException(`Account ${accountName} not found`);
    if (record.needs_relogin) throw new NeedsReloginException(accountName, 'its session was rejected by Telegram');
    const sessionString = this.store.readSession(accountName);
    if (!sessionString) throw new NeedsReloginException(accountName, 'it has no stored session');
    return { accountName, sessionString, proxy: record.proxy ?? undefined };
  }

  /**
   * Runs `call` as the account. TelegramErrors are answered as HTTP errors (session invalid → 409
   * and the account flagged); use `gateway` with `sessionFor` directly to handle them yourself.
   */
  async run<T>(accountName: string, call: (gateway: TelegramGateway, session: TelegramSession) => Promise<T>): Promise<T> {
    const session = this.sessionFor(accountName);
    try {
      return await call(this.gateway, session);
    } catch (error) {
      if (!(error instanceof TelegramError)) throw error;
      if (error.kind === 'session_invalid') {
        this.markSessionInvalid(accountName, error.message);
        throw new NeedsReloginException(accountName, error.message);
      }
      throw httpErrorFor(error);
    }
  }

  /** Flags the account (status invalid, needs_relogin) and tells listeners; safe to call repeatedly. */
  markSessionInvalid(accountName: string, message: string): void {
    if (!this.store.exists(accountName)) return;
    const newlyInvalid = this.store.get(accountName)?.needs_relogin !== true;
    this.store.updateMeta(accountName, (meta) => {
      meta.status = 'invalid';
      meta.needs_relogin = true;
    });
    void this.gateway.disconnect(accountName);
    this.emit({ type: 'session_invalid', accountName, message, newlyInvalid });
  }

  /** Account removed, logged in again, or its session found invalid; listeners (keyword monitors) subscribe here. */
  onEvent(listener: AccountEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AccountEvent): void {
    for (const listener of this.listeners) {
      void Promise.resolve()
        .then(() => listener(event))
        .catch(() => undefined);
    }
  }
}
