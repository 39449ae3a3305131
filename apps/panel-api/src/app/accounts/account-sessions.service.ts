import { Inject, Injectable } from '@nestjs/common';
import { ClusterService } from '../cluster/cluster.service';
import { OwnerOnlyTelegramGateway } from '../cluster/owner-only-telegram-gateway';
import { AccountNotFound, NeedsRelogin, PanelError } from '../common/panel-error';
import { TelegramError } from '../telegram/telegram-error';
import { TELEGRAM_GATEWAY, TelegramGateway, TelegramSession } from '../telegram/telegram-gateway';
import { AccountGovernor } from '../governor/account-governor';
import { GovernedTelegramGateway } from '../governor/governed-telegram-gateway';
import { AccountStore, AccountUserInfo, CheckCode } from './account-store';

export type AccountEvent =
  | { type: 'removed'; accountName: string }
  | { type: 'logged_in'; accountName: string }
  /** `newlyInvalid` is false when the account was flagged already (a repeated finding). */
  | { type: 'session_invalid'; accountName: string; message: string; newlyInvalid: boolean };

export type AccountEventListener = (event: AccountEvent) => void | Promise<void>;

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

/** Turns a TelegramError into the PanelError of an API route (never a 500 for Telegram's own failures). */
export function panelErrorFor(error: TelegramError): PanelError {
  switch (error.kind) {
    case 'flood_wait':
      return new PanelError('flood_wait', error.message, error.seconds);
    case 'timeout':
      return new PanelError('telegram_timeout', error.message);
    case 'connection_error':
      return new PanelError('telegram_unreachable', error.message);
    case 'not_configured':
    case 'aborted':
      return new PanelError('telegram_unavailable', error.message);
    case 'not_found':
      return new PanelError('telegram_target_not_found', error.message);
    case 'login_not_found':
      return new PanelError('login_not_found', error.message);
    case 'invalid_credentials':
      return new PanelError('login_code_invalid', error.message);
    default:
      return new PanelError('telegram_failed', error.message);
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
  /** The Telegram port behind the account safety governor (issue 35): what every feature acting as an account uses. */
  readonly gateway: TelegramGateway;

  constructor(
    private readonly store: AccountStore,
    @Inject(TELEGRAM_GATEWAY) telegram: TelegramGateway,
    governor: AccountGovernor,
    private readonly cluster: ClusterService,
  ) {
    // Only while this replica owns the account's lease (see OwnerOnlyTelegramGateway).
    this.gateway = new GovernedTelegramGateway(new OwnerOnlyTelegramGateway(telegram, cluster), governor);
    // Replicas on PostgreSQL: an account this replica gives up (or stops trusting its lease of) is
    // disconnected before the lease can pass to another replica.
    this.cluster.addReleaseHook(async (accounts) => {
      await Promise.all(accounts.map((accountName) => this.gateway.disconnect(accountName)));
    });
    // Another replica on the same database added, logged in or removed an account: the listeners
    // and the scheduler here follow as they do for a change made here.
    this.store.onExternalChange((change) => {
      for (const accountName of change.removed) {
        this.emit({ type: 'removed', accountName });
        void this.gateway.disconnect(accountName);
      }
      for (const accountName of change.loggedIn) {
        void this.gateway.disconnect(accountName);
        this.emit({ type: 'logged_in', accountName });
      }
    });
  }

  /** The session to pass to the gateway; AccountNotFound for an unknown account, NeedsRelogin when it has no usable session. */
  sessionFor(accountName: string): TelegramSession {
    const record = this.store.get(accountName);
    if (!record) throw new AccountNotFound(accountName);
    if (record.needs_relogin) throw new NeedsRelogin(accountName, 'its session was rejected by Telegram');
    const sessionString = this.store.readSession(accountName);
    if (!sessionString) throw new NeedsRelogin(accountName, 'it has no stored session');
    return { accountName, sessionString, proxy: record.proxy ?? undefined };
  }

  /**
   * Runs `call` as the account. TelegramErrors become PanelErrors (session invalid → NeedsRelogin
   * and the account flagged); use `gateway` with `sessionFor` directly to handle them yourself.
   */
  async run<T>(accountName: string, call: (gateway: TelegramGateway, session: TelegramSession) => Promise<T>): Promise<T> {
    const session = this.sessionFor(accountName);
    try {
      return await call(this.gateway, session);
    } catch (error) {
      if (!(error instanceof TelegramError)) throw error;
      if (error.kind === 'session_invalid') {
        await this.markSessionInvalid(accountName, error.message);
        throw new NeedsRelogin(accountName, error.message);
      }
      throw panelErrorFor(error);
    }
  }

  /** Flags the account (status invalid, needs_relogin) and tells listeners; safe to call repeatedly. */
  async markSessionInvalid(accountName: string, message: string): Promise<void> {
    if (!this.store.exists(accountName)) return;
    let newlyInvalid = false;
    await this.store.updateMeta(accountName, (meta) => {
      newlyInvalid = !meta.needs_relogin;
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
