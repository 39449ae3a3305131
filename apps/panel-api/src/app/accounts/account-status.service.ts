import { Inject, Injectable } from '@nestjs/common';
import { TelegramError } from '../telegram/telegram-error';
import { OwnerOnlyTelegramGateway } from '../cluster/owner-only-telegram-gateway';
import { TELEGRAM_GATEWAY, TelegramGateway } from '../telegram/telegram-gateway';
import { AccountSessionsService, checkCodeFor, userInfoOf } from './account-sessions.service';
import { AccountStatus, AccountStore, CheckCode } from './account-store';
import { isAccountName } from './account-name';
import { forEachBounded } from './bounded-concurrency';
import { PanelError, ValidationFailed } from '../common/panel-error';
import { ClusterService } from '../cluster/cluster.service';
import { forwardToReplica, ReplicaAddress } from '../cluster/owner-forwarding';

export const MAX_CHECK_ACCOUNTS = 200;
export const DEFAULT_CHECK_TIMEOUT_SECONDS = 8;
const CHECK_CONCURRENCY = 4;

export interface AccountCheckResult {
  account_name: string;
  ok: boolean;
  code: CheckCode;
  message: string;
  status: AccountStatus;
  needs_relogin: boolean;
  checked_at: string;
}

export interface CheckSummary {
  total: number;
  normal: number;
  abnormal: number;
  results: AccountCheckResult[];
  abnormal_accounts: Array<{ account_name: string; code: CheckCode; message: string }>;
}

export function summarize(results: AccountCheckResult[], total = results.length): CheckSummary {
  const abnormal = results.filter((r) => !r.ok);
  return {
    total,
    normal: results.length - abnormal.length,
    abnormal: abnormal.length,
    results,
    abnormal_accounts: abnormal.map((r) => ({ account_name: r.account_name, code: r.code, message: r.message })),
  };
}

function statusFor(code: CheckCode): AccountStatus {
  if (code === 'OK') return 'connected';
  if (code === 'ACCOUNT_SESSION_INVALID') return 'invalid';
  if (code === 'ACCOUNT_NOT_FOUND') return 'not_found';
  return 'error';
}

/** Session checks: one authenticated "who am I" per account, bounded concurrency, a per-account deadline. */
@Injectable()
export class AccountStatusService {
  /**
   * The check's "who am I" opens the account's session, so it goes through the owner-only gateway
   * like every other call acting as an account: a replica that does not own the account's lease (a
   * check that arrived as the lease moved) fails it as `aborted` instead of putting the session on a
   * second replica, which Telegram answers with AUTH_KEY_DUPLICATED (and the account would need a new
   * login).
   */
  private readonly gateway: TelegramGateway;

  constructor(
    private readonly store: AccountStore,
    private readonly sessions: AccountSessionsService,
    @Inject(TELEGRAM_GATEWAY) telegram: TelegramGateway,
    private readonly cluster: ClusterService,
  ) {
    this.gateway = new OwnerOnlyTelegramGateway(telegram, cluster);
  }

  /** The accounts a check covers: the given names (deduplicated) or every account; 400 above 200. */
  targets(accountNames?: string[]): string[] {
    const names = accountNames && accountNames.length > 0 ? [...new Set(accountNames)] : this.store.names();
    if (names.length > MAX_CHECK_ACCOUNTS) {
      throw new ValidationFailed(`A check covers at most ${MAX_CHECK_ACCOUNTS} accounts (asked for ${names.length}); pass account_names in batches`);
    }
    return names;
  }

  async check(
    names: string[],
    timeoutSeconds: number,
    options: {
      signal?: AbortSignal;
      shouldStop?: () => boolean;
      onResult?: (result: AccountCheckResult) => void;
      /** The caller's `Authorization` header: with replicas, an account another replica owns is checked there with it. */
      forwardAuthorization?: string;
    } = {},
  ): Promise<AccountCheckResult[]> {
    return forEachBounded(
      names,
      CHECK_CONCURRENCY,
      async (name) => {
        const owner = options.forwardAuthorization ? await this.remoteOwnerOf(name) : undefined;
        const result = owner
          ? await this.checkAtOwner(owner, name, timeoutSeconds, options.forwardAuthorization ?? '')
          : await this.checkOne(name, timeoutSeconds, options.signal);
        options.onResult?.(result);
        return result;
      },
      options.shouldStop,
    );
  }

  /** Checks one account; the accounts API shows it as `checking` meanwhile. */
  async checkOne(name: string, timeoutSeconds: number, signal?: AbortSignal): Promise<AccountCheckResult> {
    const known = isAccountName(name) && this.store.exists(name);
    const endCheck = known ? this.store.beginCheck(name) : undefined;
    try {
      return await this.runCheck(name, timeoutSeconds, signal);
    } finally {
      endCheck?.();
    }
  }

  /** The replica that owns the account when it is another one (replicas on PostgreSQL); undefined to check here. */
  private async remoteOwnerOf(name: string): Promise<ReplicaAddress | undefined> {
    if (!this.cluster.active || !isAccountName(name) || !this.store.exists(name) || this.cluster.owns(name)) return undefined;
    const owner = await this.cluster.ownerOf(name);
    return owner && owner.id !== this.cluster.replicaId ? owner : undefined;
  }

  /**
   * Checks an account at the replica that holds its Telegram connection (that replica records the
   * outcome in the database as on one instance), so this one never opens the session.
   */
  private async checkAtOwner(owner: ReplicaAddress, name: string, timeoutSeconds: number, authorization: string): Promise<AccountCheckResult> {
    const failed = (message: string): AccountCheckResult => ({
      account_name: name,
      ok: false,
      code: 'STATUS_CHECK_FAILED',
      message,
      status: 'error',
      needs_relogin: this.store.get(name)?.needs_relogin ?? false,
      checked_at: new Date().toISOString(),
    });
    try {
      const answer = await forwardToReplica(
        this.cluster,
        owner,
        { method: 'POST', url: '/api/accounts/status/check', headers: { authorization }, body: { account_names: [name], timeout_seconds: timeoutSeconds } },
        name,
      );
      const summary = answer.status === 200 ? (JSON.parse(answer.body.toString('utf8')) as Partial<CheckSummary>) : undefined;
      const result = summary?.results?.find((item) => item.account_name === name);
      if (result) return result;
      return failed(`Status check failed: the instance of the panel that holds ${name} answered ${answer.status}`);
    } catch (error) {
      return failed(error instanceof PanelError ? error.message : `Status check failed: ${(error as Error).message}`);
    }
  }

  private async runCheck(name: string, timeoutSeconds: number, signal?: AbortSignal): Promise<AccountCheckResult> {
    const checkedAt = new Date().toISOString();
    const result = (code: CheckCode, message: string, needsRelogin = false): AccountCheckResult => ({
      account_name: name,
      ok: code === 'OK',
      code,
      message,
      status: statusFor(code),
      needs_relogin: needsRelogin,
      checked_at: checkedAt,
    });
    if (!isAccountName(name) || !this.store.exists(name)) return result('ACCOUNT_NOT_FOUND', `Account ${name} not found`);
    let sessionString: string | undefined;
    try {
      sessionString = this.store.readSession(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const outcome =
        code === 'EACCES' || code === 'EPERM'
          ? result('STORAGE_PERMISSION_DENIED', `The session of ${name} cannot be read (${code})`)
          : result('CLIENT_INIT_FAILED', `The session of ${name} cannot be used: ${(error as Error).message}`);
      return this.record(outcome);
    }
    if (!sessionString) {
      return this.record(result('ACCOUNT_NOT_FOUND', `Account ${name} has no stored session; log in again`, true));
    }
    const record = this.store.get(name);
    try {
      const user = await this.gateway.getMe(
        { accountName: name, sessionString, proxy: record?.proxy ?? undefined },
        { timeoutMs: timeoutSeconds * 1000, signal },
      );
      // needs_relogin stays: as the spec says, only a completed login clears it (a session Telegram
      // once revoked is not trusted again because one call went through).
      await this.store.updateMeta(name, (meta) => {
        meta.user = userInfoOf(user);
      });
      return await this.record(result('OK', 'Session is valid'));
    } catch (error) {
      const code = checkCodeFor(error);
      const message = error instanceof TelegramError ? error.message : `Status check failed: ${(error as Error).message}`;
      if (code === 'ACCOUNT_SESSION_INVALID') await this.sessions.markSessionInvalid(name, message);
      return this.record(result(code, message, code === 'ACCOUNT_SESSION_INVALID'));
    }
  }

  private async record(outcome: AccountCheckResult): Promise<AccountCheckResult> {
    if (this.store.exists(outcome.account_name)) {
      await this.store.updateMeta(outcome.account_name, (meta) => {
        meta.status = outcome.status;
        if (outcome.code === 'ACCOUNT_SESSION_INVALID') meta.needs_relogin = true;
        meta.last_check = { checked_at: outcome.checked_at, code: outcome.code, message: outcome.message };
      });
    }
    outcome.needs_relogin = this.store.get(outcome.account_name)?.needs_relogin ?? outcome.needs_relogin;
    return outcome;
  }
}
