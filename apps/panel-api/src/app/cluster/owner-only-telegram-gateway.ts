import { TelegramError } from '../telegram/telegram-error';
import {
  ButtonClickResult,
  CallOptions,
  DownloadedMedia,
  HistoryOptions,
  LoginTarget,
  MessageListener,
  MessageSubscription,
  PhoneLoginStart,
  PhoneLoginStep,
  QrLoginStatus,
  SendOptions,
  TelegramAuthorization,
  TelegramDialog,
  TelegramChatRef,
  TelegramGateway,
  TelegramMessage,
  TelegramSession,
  TelegramUser,
  WaitForReplyOptions,
} from '../telegram/telegram-gateway';

/** Whether this replica may use an account's session now (ClusterService.owns). */
export interface SessionOwnership {
  owns(accountName: string): boolean;
}

/**
 * The Telegram port of a replica: a call acting as an account starts only while this replica owns
 * the account's lease (always on SQLite). The release hooks disconnect an account's session when its
 * lease goes, but work that was already under way (a listener connecting, a catch-up read, a run's
 * next step) would open the connection again right after; found by the multi-process proof
 * (tools/bench/panel-cluster.mjs), where the new owner's connection was then refused with
 * AUTH_KEY_DUPLICATED. Such a call fails here as `aborted` instead and never reaches Telegram.
 * Logins pass through: they act on no stored session.
 */
export class OwnerOnlyTelegramGateway implements TelegramGateway {
  constructor(
    private readonly inner: TelegramGateway,
    private readonly ownership: SessionOwnership,
  ) {}

  private owned(session: TelegramSession): void {
    if (!this.ownership.owns(session.accountName)) {
      throw new TelegramError('aborted', `This replica no longer owns account ${session.accountName} (its lease moved on); its session is not used here`);
    }
  }

  async getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    this.owned(session);
    return this.inner.getMe(session, options);
  }

  async wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    this.owned(session);
    return this.inner.wakeUp(session, options);
  }

  async exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    this.owned(session);
    return this.inner.exportSession(session, options);
  }

  async getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    this.owned(session);
    return this.inner.getAuthorizations(session, options);
  }

  async resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    this.owned(session);
    return this.inner.resetAuthorization(session, hash, options);
  }

  async getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    this.owned(session);
    return this.inner.getOfficialMessages(session, limit, options);
  }
  async getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    this.owned(session);
    return this.inner.getDialogs(session, limit, options);
  }


  async sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    this.owned(session);
    return this.inner.sendMessage(session, chat, text, options);
  }

  async sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    this.owned(session);
    return this.inner.sendDice(session, chat, emoji, options);
  }

  async deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    this.owned(session);
    return this.inner.deleteMessages(session, chat, messageIds, options);
  }

  async getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    this.owned(session);
    return this.inner.getMessages(session, chat, options);
  }

  async clickButton(session: TelegramSession, chat: TelegramChatRef, messageId: number, buttonText: string, options?: CallOptions): Promise<ButtonClickResult> {
    this.owned(session);
    return this.inner.clickButton(session, chat, messageId, buttonText, options);
  }

  async waitForReply(session: TelegramSession, chat: TelegramChatRef, afterMessageId: number, options?: WaitForReplyOptions): Promise<TelegramMessage | null> {
    this.owned(session);
    return this.inner.waitForReply(session, chat, afterMessageId, options);
  }

  async downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    this.owned(session);
    return this.inner.downloadMedia(session, chat, messageId, options);
  }

  async subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    this.owned(session);
    return this.inner.subscribe(session, listener, options);
  }

  startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart> {
    return this.inner.startPhoneLogin(target, phoneNumber, options);
  }

  completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep> {
    return this.inner.completePhoneLogin(loginId, code, password, options);
  }

  startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus> {
    return this.inner.startQrLogin(target, options);
  }

  getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus> {
    return this.inner.getQrLogin(loginId, options);
  }

  submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus> {
    return this.inner.submitQrPassword(loginId, password, options);
  }

  cancelLogin(loginId: string): Promise<void> {
    return this.inner.cancelLogin(loginId);
  }

  disconnect(accountName: string): Promise<void> {
    return this.inner.disconnect(accountName);
  }
}
