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
} from './telegram-gateway';

/** A gateway that holds connections and must be closed at shutdown (the GramJS adapter). */
export interface ClosableTelegramGateway extends TelegramGateway {
  close(): Promise<void>;
}

/**
 * The production TelegramGateway: builds the real one on its first call. Requiring GramJS builds
 * its whole TL schema (about 10 MB resident in the running service, 30 MB in a bare process), so an
 * instance with no account in use (a fresh install, a shard with nothing to listen to) never pays
 * for it. Every call is forwarded unchanged; a failed load (a broken install) is not remembered,
 * so the next call tries again, and reaches the caller as the plain error it is.
 */
export class LazyTelegramGateway implements TelegramGateway {
  private loading?: Promise<ClosableTelegramGateway>;

  constructor(private readonly load: () => Promise<ClosableTelegramGateway>) {}

  /** True once the real gateway was asked for. */
  get loaded(): boolean {
    return this.loading !== undefined;
  }

  private gateway(): Promise<ClosableTelegramGateway> {
    if (!this.loading) {
      const loading = this.load();
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  async getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    return (await this.gateway()).getMe(session, options);
  }

  async wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    return (await this.gateway()).wakeUp(session, options);
  }

  async exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    return (await this.gateway()).exportSession(session, options);
  }

  async getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    return (await this.gateway()).getAuthorizations(session, options);
  }

  async resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    return (await this.gateway()).resetAuthorization(session, hash, options);
  }

  async getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    return (await this.gateway()).getOfficialMessages(session, limit, options);
  }
  async getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    return (await this.gateway()).getDialogs(session, limit, options);
  }


  async sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    return (await this.gateway()).sendMessage(session, chat, text, options);
  }

  async sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    return (await this.gateway()).sendDice(session, chat, emoji, options);
  }

  async deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    return (await this.gateway()).deleteMessages(session, chat, messageIds, options);
  }

  async getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    return (await this.gateway()).getMessages(session, chat, options);
  }

  async clickButton(
    session: TelegramSession,
    chat: TelegramChatRef,
    messageId: number,
    buttonText: string,
    options?: CallOptions,
  ): Promise<ButtonClickResult> {
    return (await this.gateway()).clickButton(session, chat, messageId, buttonText, options);
  }

  async waitForReply(
    session: TelegramSession,
    chat: TelegramChatRef,
    afterMessageId: number,
    options?: WaitForReplyOptions,
  ): Promise<TelegramMessage | null> {
    return (await this.gateway()).waitForReply(session, chat, afterMessageId, options);
  }

  async downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    return (await this.gateway()).downloadMedia(session, chat, messageId, options);
  }

  async subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    return (await this.gateway()).subscribe(session, listener, options);
  }

  async startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart> {
    return (await this.gateway()).startPhoneLogin(target, phoneNumber, options);
  }

  async completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep> {
    return (await this.gateway()).completePhoneLogin(loginId, code, password, options);
  }

  async startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus> {
    return (await this.gateway()).startQrLogin(target, options);
  }

  async getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus> {
    return (await this.gateway()).getQrLogin(loginId, options);
  }

  async submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus> {
    return (await this.gateway()).submitQrPassword(loginId, password, options);
  }

  async cancelLogin(loginId: string): Promise<void> {
    // Nothing was started before the first load: there is no login to cancel.
    if (this.loading) await (await this.loading).cancelLogin(loginId);
  }

  async disconnect(accountName: string): Promise<void> {
    if (this.loading) await (await this.loading).disconnect(accountName);
  }

  /** Closes the real gateway's connections when it was loaded. */
  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    if (!loading) return;
    const gateway = await loading.catch(() => undefined);
    await gateway?.close();
  }
}
