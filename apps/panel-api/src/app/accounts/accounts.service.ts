import { Injectable } from '@nestjs/common';
import { TelegramProxy } from '../telegram/telegram-gateway';
import { parseSessionString } from '../telegram/session-string';
import { describeProxyProblem, parseProxyUrl } from './account-proxy';
import { AccountSessionsService } from './account-sessions.service';
import { AccountRecord, AccountStore } from './account-store';
import { AccountNotFound, PanelError, ValidationFailed } from '../common/panel-error';

export function proxyFromInput(text: string | null | undefined): TelegramProxy | null | undefined {
  if (text === undefined) return undefined;
  if (text === null || text === '') return null;
  const proxy = parseProxyUrl(text);
  if (!proxy) {
    const problem = describeProxyProblem(text);
    throw ValidationFailed.ofField(problem.sentence, 'proxy', problem.rule, problem.sentence);
  }
  return proxy;
}

/** The account records: list, read (memory, refreshed from the database), change, import, delete. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly store: AccountStore,
    private readonly sessions: AccountSessionsService,
  ) {}

  /** Brings in every account write committed before this call, here or on another replica. */
  async fresh(): Promise<void> {
    await this.store.refresh();
  }

  list(): AccountRecord[] {
    return this.store.listCached();
  }

  get(name: string): AccountRecord {
    const record = this.store.get(name);
    if (!record) throw new AccountNotFound(name);
    return record;
  }

  async update(name: string, change: { remark?: string | null; proxy?: string | null }): Promise<AccountRecord> {
    this.get(name);
    const proxy = proxyFromInput(change.proxy);
    await this.store.updateMeta(name, (meta) => {
      if (change.remark !== undefined) meta.remark = change.remark === null || change.remark === '' ? null : change.remark;
      if (proxy !== undefined) meta.proxy = proxy;
    });
    if (proxy !== undefined) void this.sessions.gateway.disconnect(name);
    return this.get(name);
  }

  async remove(name: string): Promise<void> {
    await this.fresh();
    this.get(name);
    // Listeners stop first, so none keeps using a session that is about to disappear.
    this.sessions.emit({ type: 'removed', accountName: name });
    await this.sessions.gateway.disconnect(name);
    await this.store.remove(name);
  }

  async importSession(input: { account_name: string; session_string: string; remark?: string; proxy?: string; overwrite?: boolean }): Promise<AccountRecord> {
    const name = input.account_name;
    if (!parseSessionString(input.session_string)) {
      throw new ValidationFailed('session_string is not a GramJS string session (version "1" followed by base64 of data center, address, port and a 256-byte key)');
    }
    const proxy = proxyFromInput(input.proxy);
    await this.fresh();
    if (this.store.exists(name) && !input.overwrite) {
      throw new PanelError('account_exists', `Account ${name} already exists; send overwrite: true to replace its session`);
    }
    await this.store.writeSession(name, input.session_string.trim());
    await this.store.updateMeta(name, (meta) => {
      meta.status = null;
      meta.needs_relogin = false;
      meta.last_check = null;
      if (input.remark !== undefined) meta.remark = input.remark || null;
      if (proxy !== undefined) meta.proxy = proxy;
    });
    void this.sessions.gateway.disconnect(name);
    this.sessions.emit({ type: 'logged_in', accountName: name });
    return this.get(name);
  }
}
