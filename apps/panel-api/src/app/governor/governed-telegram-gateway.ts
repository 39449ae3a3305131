import { englishText } from '@shared/panel-texts';
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
import { AccountGovernor, GovernorRefusal } from './account-governor';

/**
 * The Telegram port with the safety governor in front: writes (messages, dice, clicks, deletions)
 * wait for the account's budget first; every call's FloodWait is reported to the governor; the
 * keep-alive wake-up is refused while the account's automation is paused. Logins pass through.
 */
export class GovernedTelegramGateway implements TelegramGateway {
  constructor(
    private readonly inner: TelegramGateway,
    private readonly governor: AccountGovernor,
  ) {}

  getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    return this.read(session, 'getMe', () => this.inner.getMe(session, options));
  }

  wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    if (this.governor.isPaused(session.accountName)) {
      return Promise.reject(new GovernorRefusal('paused', englishText('runMessage', 'safety_keepalive_paused', { account: session.accountName })));
    }
    return this.read(session, 'wakeUp', () => this.inner.wakeUp(session, options));
  }

  exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    return this.read(session, 'exportSession', () => this.inner.exportSession(session, options));
  }

  getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    return this.read(session, 'getAuthorizations', () => this.inner.getAuthorizations(session, options));
  }

  resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    return this.read(session, 'resetAuthorization', () => this.inner.resetAuthorization(session, hash, options));
  }

  getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    return this.read(session, 'getOfficialMessages', () => this.inner.getOfficialMessages(session, limit, options));
  }
  getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    return this.read(session, 'getDialogs', () => this.inner.getDialogs(session, limit, options));
  }


  sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.write(session, 'sendMessage', chat, options, () => this.inner.sendMessage(session, chat, text, options));
  }

  sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.write(session, 'sendDice', chat, options, () => this.inner.sendDice(session, chat, emoji, options));
  }

  deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    return this.write(session, 'deleteMessages', chat, options, () => this.inner.deleteMessages(session, chat, messageIds, options));
  }

  getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    return this.read(session, 'getMessages', () => this.inner.getMessages(session, chat, options));
  }

  clickButton(session: TelegramSession, chat: TelegramChatRef, messageId: number, buttonText: string, options?: CallOptions): Promise<ButtonClickResult> {
    return this.write(session, 'clickButton', chat, options, () => this.inner.clickButton(session, chat, messageId, buttonText, options));
  }

  waitForReply(session: TelegramSession, chat: TelegramChatRef, afterMessageId: number, options?: WaitForReplyOptions): Promise<TelegramMessage | null> {
    return this.read(session, 'waitForReply', () => this.inner.waitForReply(session, chat, afterMessageId, options));
  }

  downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    return this.read(session, 'downloadMedia', () => this.inner.downloadMedia(session, chat, messageId, options));
  }

  subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    return this.read(session, 'subscribe', () => this.inner.subscribe(session, listener, options));
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

  private async read<T>(session: TelegramSession, method: string, call: () => Promise<T>): Promise<T> {
    this.governor.noteCall(session.accountName);
    try {
      return await call();
    } catch (error) {
      await this.governor.noteFailure(session.accountName, method, error);
      throw error;
    }
  }

  private async write<T>(session: TelegramSession, method: string, chat: TelegramChatRef, options: CallOptions | undefined, call: () => Promise<T>): Promise<T> {
    const done = await this.governor.acquire(session.accountName, String(chat), { signal: options?.signal, maxWaitMs: options?.budgetMaxWaitMs });
    try {
      return await call();
    } catch (error) {
      await this.governor.noteFailure(session.accountName, method, error);
      throw error;
    } finally {
      done();
    }
  }
}
