import { Injectable } from '@nestjs/common';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { AccountChatDto, AccountChatListDto } from './dto/account-chat.dto';

/** How many of the newest dialogs are read from Telegram (one to two requests); a search looks only among these. */
export const DIALOG_SCAN_LIMIT = 200;
/** Bound of the Telegram call, connecting included: a picker that waits longer is no help. */
const DIALOG_CALL_TIMEOUT_MS = 10_000;
const DEFAULT_LIMIT = 50;

/** The chats of an account, read from its Telegram dialog list, for the task editor's chat picker. */
@Injectable()
export class AccountChatsService {
  constructor(private readonly sessions: AccountSessionsService) {}

  async list(accountName: string, query: { q?: string; limit?: number }): Promise<AccountChatListDto> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const dialogs = await this.sessions.run(accountName, (gateway, session) =>
      gateway.getDialogs(session, DIALOG_SCAN_LIMIT, { timeoutMs: DIALOG_CALL_TIMEOUT_MS }),
    );
    const needle = query.q?.toLowerCase().replace(/^@/, '') ?? '';
    const matching = needle
      ? dialogs.filter((dialog) => dialog.title.toLowerCase().includes(needle) || (dialog.username?.toLowerCase().includes(needle) ?? false) || dialog.id === needle)
      : dialogs;
    const chats: AccountChatDto[] = matching.slice(0, limit).map((dialog) => ({
      id: dialog.id,
      title: dialog.title,
      kind: dialog.kind,
      ...(dialog.username ? { username: dialog.username } : {}),
    }));
    return { account_name: accountName, chats, truncated: matching.length > limit || dialogs.length >= DIALOG_SCAN_LIMIT };
  }
}
