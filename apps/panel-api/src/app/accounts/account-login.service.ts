import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { TelegramError } from '../telegram/telegram-error';
import { QrLoginStatus, TELEGRAM_GATEWAY, TelegramGateway, TelegramProxy, TelegramUser } from '../telegram/telegram-gateway';
import { AccountSessionsService, panelErrorFor, userInfoOf } from './account-sessions.service';
import { AccountRecord, AccountStore } from './account-store';
import { proxyFromInput } from './accounts.service';
import { PanelError } from '../common/panel-error';
import { ClusterService } from '../cluster/cluster.service';

const LOGIN_TIMEOUT_MS = 30_000;
/** A started login that is not finished within this time is forgotten. */
const PENDING_LOGIN_TTL_MS = 10 * 60_000;

interface PendingPhoneLogin {
  loginId: string;
  proxy: TelegramProxy | null;
  startedAt: number;
}

interface PendingQrLogin {
  accountName: string;
  proxy: TelegramProxy | null;
  startedAt: number;
  finished?: QrLoginStatus;
}

export type PhoneVerifyOutcome =
  | { status: 'success'; account: AccountRecord }
  | { status: 'password_required'; hint?: string };

export interface QrLoginOutcome {
  loginId: string;
  accountName: string;
  status: QrLoginStatus;
  account?: AccountRecord;
}

/** Phone-code (with 2FA) and QR logins; a completed login stores the session and clears needs_relogin. */
@Injectable()
export class AccountLoginService implements OnModuleDestroy {
  private readonly phoneLogins = new Map<string, PendingPhoneLogin>();
  private readonly qrLogins = new Map<string, PendingQrLogin>();

  constructor(
    @Inject(TELEGRAM_GATEWAY) private readonly gateway: TelegramGateway,
    private readonly store: AccountStore,
    private readonly sessions: AccountSessionsService,
    private readonly cluster: ClusterService,
  ) {}

  async onModuleDestroy(): Promise<void> {
    const ids = [...[...this.phoneLogins.values()].map((l) => l.loginId), ...this.qrLogins.keys()];
    for (const name of [...this.phoneLogins.keys(), ...[...this.qrLogins.values()].map((login) => login.accountName)]) this.cluster.endLoginHold(name);
    this.phoneLogins.clear();
    this.qrLogins.clear();
    await Promise.all(ids.map((id) => this.gateway.cancelLogin(id).catch(() => undefined)));
  }

  async startPhoneLogin(accountName: string, phoneNumber: string, proxyText?: string): Promise<{ codeType: string }> {
    const proxy = proxyFromInput(proxyText) ?? this.store.get(accountName)?.proxy ?? null;
    this.sweep();
    const previous = this.phoneLogins.get(accountName);
    if (previous) {
      this.phoneLogins.delete(accountName);
      await this.gateway.cancelLogin(previous.loginId).catch(() => undefined);
    }
    await this.holdHere(accountName);
    let started: { loginId: string; codeType: string };
    try {
      started = await this.guard(() =>
        this.gateway.startPhoneLogin({ accountName, proxy: proxy ?? undefined }, phoneNumber, { timeoutMs: LOGIN_TIMEOUT_MS }),
      );
    } catch (error) {
      this.releaseHoldUnlessPending(accountName);
      throw error;
    }
    this.phoneLogins.set(accountName, { loginId: started.loginId, proxy, startedAt: Date.now() });
    return { codeType: started.codeType };
  }

  async verifyPhoneLogin(accountName: string, code: string, password?: string): Promise<PhoneVerifyOutcome> {
    this.sweep();
    const pending = this.phoneLogins.get(accountName);
    if (!pending) throw new PanelError('login_not_found', `No login in progress for account ${accountName}; call /api/accounts/login/start first`);
    const step = await this.guard(() => this.gateway.completePhoneLogin(pending.loginId, code, password, { timeoutMs: LOGIN_TIMEOUT_MS }));
    if (step.status === 'password_required') return { status: 'password_required', hint: step.hint };
    this.phoneLogins.delete(accountName);
    try {
      return { status: 'success', account: await this.complete(accountName, step.sessionString, step.user, pending.proxy) };
    } finally {
      this.releaseHoldUnlessPending(accountName);
    }
  }

  /** Forgets a started phone login and closes its connection (the person closed the dialog). */
  async cancelPhoneLogin(accountName: string): Promise<void> {
    this.sweep();
    const pending = this.phoneLogins.get(accountName);
    if (!pending) throw new PanelError('login_not_found', `No login in progress for account ${accountName}`);
    this.phoneLogins.delete(accountName);
    this.releaseHoldUnlessPending(accountName);
    await this.gateway.cancelLogin(pending.loginId).catch(() => undefined);
  }

  async startQrLogin(accountName: string, proxyText?: string): Promise<QrLoginOutcome> {
    const proxy = proxyFromInput(proxyText) ?? this.store.get(accountName)?.proxy ?? null;
    this.sweep();
    await this.holdHere(accountName);
    let status: QrLoginStatus;
    try {
      status = await this.guard(() => this.gateway.startQrLogin({ accountName, proxy: proxy ?? undefined }, { timeoutMs: LOGIN_TIMEOUT_MS }));
    } catch (error) {
      this.releaseHoldUnlessPending(accountName);
      throw error;
    }
    this.qrLogins.set(status.loginId, { accountName, proxy, startedAt: Date.now() });
    return { loginId: status.loginId, accountName, status };
  }

  async qrLoginStatus(loginId: string): Promise<QrLoginOutcome> {
    const pending = this.pendingQr(loginId);
    if (pending.finished) return this.qrOutcome(loginId, pending, pending.finished);
    const status = await this.guard(() => this.gateway.getQrLogin(loginId, { timeoutMs: LOGIN_TIMEOUT_MS }));
    return this.settleQr(loginId, pending, status);
  }

  async submitQrPassword(loginId: string, password: string): Promise<QrLoginOutcome> {
    const pending = this.pendingQr(loginId);
    if (pending.finished) return this.qrOutcome(loginId, pending, pending.finished);
    const status = await this.guard(() => this.gateway.submitQrPassword(loginId, password, { timeoutMs: LOGIN_TIMEOUT_MS }));
    return this.settleQr(loginId, pending, status);
  }

  /** Forgets a QR login and closes its connection (a closed dialog, or a code replaced by a fresh one). */
  async cancelQrLogin(loginId: string): Promise<void> {
    const pending = this.pendingQr(loginId);
    this.qrLogins.delete(loginId);
    this.releaseHoldUnlessPending(pending.accountName);
    if (!pending.finished) await this.gateway.cancelLogin(loginId).catch(() => undefined);
  }

  /** Whether this instance holds the QR login (replicas: the others forward its steps here). */
  knowsQrLogin(loginId: string): boolean {
    return this.qrLogins.has(loginId);
  }

  /**
   * Replicas: a login uses the account's Telegram connection, so it runs where the account's lease
   * is. The step that starts it was forwarded to the owner, or nobody owns the account (a brand-new
   * one has no lease yet): then this replica takes the lease and keeps it for the login's length, so
   * the next steps, wherever they arrive, are forwarded here.
   */
  private async holdHere(accountName: string): Promise<void> {
    if (await this.cluster.holdForLogin(accountName, PENDING_LOGIN_TTL_MS)) return;
    throw new PanelError(
      'service_unavailable',
      `Another instance of the panel holds the Telegram connection of ${accountName} right now. Try again in a few seconds.`,
      this.cluster.leaseSeconds,
    );
  }

  /** Ends the lease hold of an account when none of its logins here is still going. */
  private releaseHoldUnlessPending(accountName: string): void {
    const going = this.phoneLogins.has(accountName) || [...this.qrLogins.values()].some((login) => login.accountName === accountName && !login.finished);
    if (!going) this.cluster.endLoginHold(accountName);
  }

  private pendingQr(loginId: string): PendingQrLogin {
    this.sweep();
    const pending = this.qrLogins.get(loginId);
    if (!pending) throw new PanelError('login_not_found', `QR login ${loginId} not found or expired`);
    return pending;
  }

  private async settleQr(loginId: string, pending: PendingQrLogin, status: QrLoginStatus): Promise<QrLoginOutcome> {
    if (status.state === 'success' && status.sessionString && status.user) {
      // Stored once; later polls answer from memory without the session string.
      pending.finished = { loginId, state: 'success', user: status.user };
      try {
        await this.complete(pending.accountName, status.sessionString, status.user, pending.proxy);
      } finally {
        this.releaseHoldUnlessPending(pending.accountName);
      }
      await this.gateway.cancelLogin(loginId).catch(() => undefined);
    } else if (status.state === 'expired' || status.state === 'failed') {
      pending.finished = { loginId, state: status.state, error: status.error };
      this.releaseHoldUnlessPending(pending.accountName);
      await this.gateway.cancelLogin(loginId).catch(() => undefined);
    }
    return this.qrOutcome(loginId, pending, pending.finished ?? status);
  }

  private qrOutcome(loginId: string, pending: PendingQrLogin, status: QrLoginStatus): QrLoginOutcome {
    const account = status.state === 'success' ? this.store.get(pending.accountName) : undefined;
    return { loginId, accountName: pending.accountName, status, account };
  }

  private async complete(accountName: string, sessionString: string, user: TelegramUser, proxy: TelegramProxy | null): Promise<AccountRecord> {
    await this.gateway.disconnect(accountName);
    await this.store.writeSession(accountName, sessionString);
    await this.store.updateMeta(accountName, (meta) => {
      meta.status = 'connected';
      meta.needs_relogin = false;
      meta.user = userInfoOf(user);
      meta.proxy = proxy;
      meta.last_check = { checked_at: new Date().toISOString(), code: 'OK', message: 'Logged in' };
    });
    this.sessions.emit({ type: 'logged_in', accountName });
    const record = this.store.get(accountName);
    if (!record) throw new Error(`Account ${accountName} vanished right after login`);
    return record;
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TelegramError) throw panelErrorFor(error);
      throw error;
    }
  }

  private sweep(): void {
    const cutoff = Date.now() - PENDING_LOGIN_TTL_MS;
    for (const [name, login] of this.phoneLogins) {
      if (login.startedAt < cutoff) {
        this.phoneLogins.delete(name);
        this.releaseHoldUnlessPending(name);
        void this.gateway.cancelLogin(login.loginId).catch(() => undefined);
      }
    }
    for (const [id, login] of this.qrLogins) {
      if (login.startedAt < cutoff) {
        this.qrLogins.delete(id);
        this.releaseHoldUnlessPending(login.accountName);
        void this.gateway.cancelLogin(id).catch(() => undefined);
      }
    }
  }
}
