/**
 * The Telegram port: everything panel-api does with MTProto goes through this interface. The
 * production implementation is the GramJS adapter (gramjs-telegram-gateway.ts); tests use the
 * in-process simulator (apps/panel-api/test/telegram-simulator.ts), chosen through TELEGRAM_GATEWAY.
 *
 * Every call takes CallOptions: it ends within `timeoutMs` (TelegramError kind `timeout`) or when
 * `signal` aborts (kind `aborted`), whatever Telegram does. Failures are always TelegramError.
 */

export const TELEGRAM_GATEWAY = Symbol('TELEGRAM_GATEWAY');

export type TelegramProxyType = 'socks5' | 'socks4' | 'http' | 'mtproxy';

export interface TelegramProxy {
  type: TelegramProxyType;
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** MTProxy secret (hex), required for `mtproxy`. */
  secret?: string;
}

/** Who to act as: an account name (the connection pool key), its GramJS string session and proxy. */
export interface TelegramSession {
  accountName: string;
  sessionString: string;
  proxy?: TelegramProxy;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Deadline of the whole call including connecting; the gateway's default when omitted. */
  timeoutMs?: number;
  /**
   * A write that would have to wait longer than this for the account's safety budget is refused
   * instead (listener replies: a late answer is worse than none). No bound when omitted.
   */
  budgetMaxWaitMs?: number;
}

/** A chat by numeric id (`-100…` for channels and supergroups, a user id) or by `@username`. */
export type TelegramChatRef = string | number;

export interface TelegramUser {
  id: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

export interface TelegramButton {
  text: string;
  /** `callback` buttons send a callback query; `url` buttons carry a link; `reply` are keyboard buttons. */
  kind: 'callback' | 'url' | 'reply' | 'other';
  url?: string;
}

export interface TelegramMessage {
  id: number;
  chatId: string;
  senderId?: string;
  senderName?: string;
  senderUsername?: string;
  /** True when the account itself sent it. */
  out: boolean;
  /** Unix time in seconds. */
  date: number;
  editDate?: number;
  text: string;
  threadId?: number;
  replyToMessageId?: number;
  /** Rows of buttons: inline keyboard or reply keyboard (see `kind`). */
  buttons: TelegramButton[][];
  hasMedia: boolean;
  mediaKind?: 'photo' | 'document' | 'dice' | 'other';
  /** Value of a dice roll, when mediaKind is `dice`. */
  diceValue?: number;
}

export interface TelegramIncomingMessage extends TelegramMessage {
  chatTitle?: string;
  chatType: 'user' | 'group' | 'channel';
  /** `new` for a new message, `edited` when a message (for example a bot's answer) was edited. */
  event: 'new' | 'edited';
}

export interface TelegramAuthorization {
  /** The authorization hash as a decimal string (a 64-bit integer, too large for a JS number). */
  hash: string;
  current: boolean;
  officialApp: boolean;
  deviceModel: string;
  platform: string;
  systemVersion: string;
  appName: string;
  appVersion: string;
  ip: string;
  country: string;
  region: string;
  /** Unix time in seconds. */
  dateCreated: number;
  dateActive: number;
}

/** A chat of the account's dialog list (what the chat picker offers). */
export interface TelegramDialog {
  /** The id a task uses: a user id, `-…` for a basic group, `-100…` for a channel or supergroup. */
  id: string;
  title: string;
  kind: 'user' | 'group' | 'channel' | 'forum';
  username?: string;
}

export interface SendOptions extends CallOptions {
  /** Forum topic (message_thread_id). */
  threadId?: number;
  replyToMessageId?: number;
}

export interface HistoryOptions extends CallOptions {
  limit?: number;
  /** Only messages with a larger id. */
  minId?: number;
  /** Exactly these messages (other filters ignored). */
  ids?: number[];
}

export type ButtonClickResult =
  | { kind: 'callback'; answer?: string; alert: boolean; url?: string }
  | { kind: 'sent'; message: TelegramMessage };

export interface WaitForReplyOptions extends CallOptions {
  /** Only messages from this sender (for example the bot); any incoming message when omitted. */
  fromId?: string;
  /** Also accept an edit of a message at or before afterMessageId (bots that edit their menu). */
  acceptEdits?: boolean;
}

export interface DownloadedMedia {
  data: Buffer;
  mimeType: string;
}

export interface MessageSubscription {
  unsubscribe(): Promise<void>;
}

export type MessageListener = (message: TelegramIncomingMessage) => void;

export type PhoneLoginStep =
  | { status: 'success'; sessionString: string; user: TelegramUser }
  | { status: 'password_required'; hint?: string };

export interface PhoneLoginStart {
  loginId: string;
  /** How the code was delivered: `app` (official messages), `sms`, `call`, … */
  codeType: string;
}

export type QrLoginState = 'waiting_scan' | 'scanned_wait_confirm' | 'password_required' | 'success' | 'expired' | 'failed';

export interface QrLoginStatus {
  loginId: string;
  state: QrLoginState;
  /** `tg://login?token=…` to show as a QR code while waiting. */
  qrUrl?: string;
  /** Unix time in seconds when the current token expires. */
  expiresAt?: number;
  passwordHint?: string;
  sessionString?: string;
  user?: TelegramUser;
  error?: string;
}

export interface LoginTarget {
  accountName: string;
  proxy?: TelegramProxy;
}

export interface TelegramGateway {
  /** Authenticated "who am I": proves the session works. */
  getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser>;
  /** A light authenticated request that counts as activity (account.updateStatus offline=false). */
  wakeUp(session: TelegramSession, options?: CallOptions): Promise<void>;
  /** The session string as it is now (GramJS may have moved to another data center). */
  exportSession(session: TelegramSession, options?: CallOptions): Promise<string>;

  getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]>;
  resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void>;
  /** Newest first, from user 777000; read-only: never marks anything read. */
  getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]>;

  /** The account's most recent dialogs, newest first, at most `limit`; read-only. */
  getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]>;

  sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage>;
  sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage>;
  /**
   * Deletes messages of a chat for everyone (revoke): in private chats and groups the account may
   * delete its own messages on both sides; in channels and supergroups this needs the right to.
   * Ids that are already gone are ignored by Telegram.
   */
  deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void>;
  /** Newest first. */
  getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]>;
  /** Presses the button whose text contains `buttonText` on that message: inline → callback query, reply keyboard → sends the text. */
  clickButton(
    session: TelegramSession,
    chat: TelegramChatRef,
    messageId: number,
    buttonText: string,
    options?: CallOptions,
  ): Promise<ButtonClickResult>;
  /** The first incoming message in the chat after `afterMessageId`, or null when the timeout passes. */
  waitForReply(
    session: TelegramSession,
    chat: TelegramChatRef,
    afterMessageId: number,
    options?: WaitForReplyOptions,
  ): Promise<TelegramMessage | null>;
  /** Media of a message (photo or document), or null when it has none. */
  downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null>;
  /** Pushes new and edited messages of every chat to the listener until unsubscribed. */
  subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription>;

  startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart>;
  /** Code, then (when the answer is password_required) call again with the 2FA password. */
  completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep>;
  startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus>;
  getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus>;
  submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus>;
  /** Forgets a pending phone or QR login and closes its connection. */
  cancelLogin(loginId: string): Promise<void>;

  /** Closes the pooled connection of an account (after delete or re-login). */
  disconnect(accountName: string): Promise<void>;
}
