import { randomBytes, randomInt } from 'node:crypto';
import { encodeSessionString, parseSessionString } from '../src/app/telegram/session-string';
import { TelegramError } from '../src/app/telegram/telegram-error';
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
  TelegramButton,
  TelegramChatRef,
  TelegramGateway,
  TelegramIncomingMessage,
  TelegramMessage,
  TelegramSession,
  TelegramUser,
  WaitForReplyOptions,
} from '../src/app/telegram/telegram-gateway';

/**
 * An in-process Telegram for tests: users, their authorizations (the session strings it issues are
 * real GramJS string sessions with random keys), chats with bots that answer text and inline
 * keyboards, groups that push messages to subscribers, the official 777000 chat, login by code/2FA
 * and QR, and injected failures (flood waits, revoked sessions, unreachable accounts, hanging calls).
 * It implements the same TelegramGateway interface as the GramJS adapter.
 */

export const OFFICIAL_USER_ID = '777000';

export interface SimUser {
  id: string;
  phone: string;
  firstName: string;
  username?: string;
  password?: string;
  passwordHint?: string;
}

export interface SimReply {
  text: string;
  inlineButtons?: string[][];
  replyKeyboard?: string[][];
  /** Attach a photo (bytes), for AI image actions. */
  photo?: Buffer;
  /** The bot edits this message later instead of sending another (like check-in bots that answer "processing…" first). */
  thenEdit?: { afterMs: number; text: string };
}

/** Someone in a group answers what the account wrote (the group's bot, or other members). */
export interface SimGroupAnswer {
  from: { id: string; username?: string; name?: string };
  text: string;
  /** Sent as a reply to the account's message. */
  replyToOurs?: boolean;
}

export interface SimCallbackAnswer {
  /** Callback answer shown as a toast (or alert). */
  answer?: string;
  alert?: boolean;
  /** Edit the pressed message. */
  edit?: { text: string; inlineButtons?: string[][] };
  /** Send a new message from the bot. */
  reply?: SimReply;
}

export interface SimBotContext {
  user: SimUser;
  threadId?: number;
  message: TelegramMessage;
}

export interface SimBotDefinition {
  username: string;
  id?: string;
  title?: string;
  /** Answers to a text (or a dice, whose text is the emoji and `message.diceValue` the roll). */
  onMessage?: (text: string, context: SimBotContext) => SimReply | SimReply[] | undefined;
  onCallback?: (buttonText: string, message: TelegramMessage, context: SimBotContext) => SimCallbackAnswer | undefined;
}

export interface SimGroupDefinition {
  id: string;
  title: string;
  username?: string;
  type?: 'group' | 'channel';
  /** Forum supergroup: messages carry a thread id. */
  forum?: boolean;
  /** What the group's members (its bot, other people) write after the account's message, in order. */
  onMessage?: (text: string, context: SimBotContext) => SimGroupAnswer[] | undefined;
}

interface SimAuthorization {
  hash: string;
  authKey: string;
  userId: string;
  deviceModel: string;
  platform: string;
  systemVersion: string;
  appName: string;
  appVersion: string;
  officialApp: boolean;
  ip: string;
  country: string;
  region: string;
  dateCreated: number;
  dateActive: number;
  revokedReason?: string;
}

interface SimChat {
  id: string;
  title: string;
  username?: string;
  type: 'user' | 'group' | 'channel';
  forum?: boolean;
  bot?: SimBotDefinition & { id: string };
  groupOnMessage?: SimGroupDefinition['onMessage'];
}

interface StoredMessage extends TelegramMessage {
  photo?: Buffer;
}

interface PendingPhoneLogin {
  kind: 'phone';
  target: LoginTarget;
  phone: string;
  code: string;
  userId?: string;
  passwordPending: boolean;
}

interface PendingQrLogin {
  kind: 'qr';
  target: LoginTarget;
  token: string;
  state: QrLoginStatus['state'];
  expiresAt: number;
  userId?: string;
  sessionString?: string;
  error?: string;
}

export type SimMethod = keyof TelegramGateway;

interface Fault {
  accountName?: string;
  method?: SimMethod;
  error: () => TelegramError;
  remaining: number;
}

export interface SimCall {
  method: SimMethod;
  accountName?: string;
  args: unknown[];
}

const DEFAULT_TIMEOUT_MS = 10_000;

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function randomHash(): string {
  return BigInt.asIntN(64, BigInt(`0x${randomBytes(8).toString('hex')}`)).toString();
}

function buttonsOf(reply: SimReply): TelegramButton[][] {
  if (reply.inlineButtons) return reply.inlineButtons.map((row) => row.map((text) => ({ text, kind: 'callback' as const })));
  if (reply.replyKeyboard) return reply.replyKeyboard.map((row) => row.map((text) => ({ text, kind: 'reply' as const })));
  return [];
}

export class TelegramSimulator implements TelegramGateway {
  private readonly users = new Map<string, SimUser>();
  private readonly authorizations = new Map<string, SimAuthorization>();
  private readonly chats = new Map<string, SimChat>();
  /** Messages per user and chat: key `${userId}:${chatId}`. */
  private readonly histories = new Map<string, StoredMessage[]>();
  private readonly subscribers = new Map<string, Set<{ userId: string; listener: MessageListener }>>();
  private readonly logins = new Map<string, PendingPhoneLogin | PendingQrLogin>();
  private readonly faults: Fault[] = [];
  private readonly unreachable = new Set<string>();
  private readonly hanging = new Set<string>();
  private nextUserId = 100_000_001;
  private nextMessageId = 1;
  private latencyMs = 0;
  /** Every call made through the port, for assertions (for example "sent nothing"). */
  readonly calls: SimCall[] = [];
  readonly disconnected: string[] = [];
  /** Every deletion that removed messages: whose view, which chat, which ids. */
  readonly deletions: Array<{ userId: string; chatId: string; messageIds: number[]; at: number }> = [];

  constructor() {
    this.chats.set(OFFICIAL_USER_ID, { id: OFFICIAL_USER_ID, title: 'Telegram', type: 'user' });
  }

  // ----- test set-up -------------------------------------------------------------------------

  createUser(input: { phone: string; firstName?: string; username?: string; password?: string; passwordHint?: string }): SimUser {
    const user: SimUser = {
      id: String(this.nextUserId++),
      phone: input.phone.replace(/[^\d]/g, ''),
      firstName: input.firstName ?? 'Test',
      username: input.username,
      password: input.password,
      passwordHint: input.passwordHint,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** A new authorization of the user (another device) and its string session. */
  issueSession(userId: string, device: Partial<Pick<SimAuthorization, 'deviceModel' | 'platform' | 'appName' | 'appVersion' | 'officialApp' | 'ip' | 'country'>> = {}): string {
    const authKey = randomBytes(256);
    const sessionString = encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey });
    this.authorizations.set(authKey.toString('base64'), {
      hash: randomHash(),
      authKey: authKey.toString('base64'),
      userId,
      deviceModel: device.deviceModel ?? 'panel-api',
      platform: device.platform ?? 'Linux',
      systemVersion: '6.1',
      appName: device.appName ?? 'signpulse',
      appVersion: device.appVersion ?? '1.0',
      officialApp: device.officialApp ?? false,
      ip: device.ip ?? '203.0.113.7',
      country: device.country ?? 'Netherlands',
      region: 'North Holland',
      dateCreated: now() - 86_400,
      dateActive: now(),
    });
    return sessionString;
  }

  /** Revokes the authorization behind a session string (SESSION_REVOKED from then on). */
  revokeSession(sessionString: string, reason = 'SESSION_REVOKED'): void {
    const authorization = this.authorizationOf(sessionString);
    if (authorization) authorization.revokedReason = reason;
  }

  /** The authorizations of a user as Telegram would list them (hash strings). */
  authorizationHashes(userId: string): string[] {
    return [...this.authorizations.values()].filter((a) => a.userId === userId && !a.revokedReason).map((a) => a.hash);
  }

  addBot(definition: SimBotDefinition): { id: string; username: string } {
    const id = definition.id ?? String(this.nextUserId++);
    this.chats.set(id, { id, title: definition.title ?? definition.username, username: definition.username, type: 'user', bot: { ...definition, id } });
    return { id, username: definition.username };
  }

  addGroup(definition: SimGroupDefinition): { id: string } {
    this.chats.set(definition.id, {
      id: definition.id,
      title: definition.title,
      username: definition.username,
      type: definition.type ?? 'group',
      forum: definition.forum,
      groupOnMessage: definition.onMessage,
    });
    return { id: definition.id };
  }

  /** The user joins a chat (or opens it) without a message yet: it is in the user's dialog list. */
  joinChat(userId: string, chatId: string): void {
    if (!this.chats.has(chatId)) throw new Error(`No simulated chat ${chatId}`);
    const key = `${userId}:${chatId}`;
    if (!this.histories.has(key)) this.histories.set(key, []);
  }

  addOfficialMessage(userId: string, text: string): TelegramMessage {
    return this.append(userId, OFFICIAL_USER_ID, { text, senderId: OFFICIAL_USER_ID, senderName: 'Telegram', out: false });
  }

  /** Someone else writes in a chat the user is in; subscribers of that user receive it. */
  pushIncoming(
    userId: string,
    chatId: string,
    input: { text: string; senderId?: string; senderName?: string; senderUsername?: string; threadId?: number; inlineButtons?: string[][] },
  ): TelegramMessage {
    return this.append(userId, chatId, {
      text: input.text,
      senderId: input.senderId ?? '555000111',
      senderName: input.senderName ?? 'Someone',
      senderUsername: input.senderUsername,
      threadId: input.threadId,
      out: false,
      buttons: input.inlineButtons ? buttonsOf({ text: input.text, inlineButtons: input.inlineButtons }) : [],
    });
  }

  /** The chat as the user sees it, newest first (including what the account sent). */
  history(userId: string, chatId: string): TelegramMessage[] {
    return [...(this.histories.get(`${userId}:${chatId}`) ?? [])].reverse();
  }

  /** The code Telegram "sent" to the phone in the last phone login. */
  lastLoginCode(phone: string): string | undefined {
    const digits = phone.replace(/[^\d]/g, '');
    const logins = [...this.logins.values()].filter((l): l is PendingPhoneLogin => l.kind === 'phone' && l.phone === digits);
    return logins.at(-1)?.code;
  }

  /** The phone app scanned the QR code of a pending login; `confirm` also accepts it on the phone. */
  scanQr(loginIdOrToken: string, userId: string, options: { confirm?: boolean } = {}): void {
    const login = this.findQr(loginIdOrToken);
    login.userId = userId;
    login.state = 'scanned_wait_confirm';
    if (options.confirm ?? true) this.confirmQr(login);
  }

  expireQr(loginIdOrToken: string): void {
    this.findQr(loginIdOrToken).expiresAt = now() - 1;
  }

  /** The next `times` calls (of `method`, of `accountName`) fail with this error. */
  failNext(error: () => TelegramError, filter: { accountName?: string; method?: SimMethod; times?: number } = {}): void {
    this.faults.push({ accountName: filter.accountName, method: filter.method, error, remaining: filter.times ?? 1 });
  }

  floodWaitNext(seconds: number, filter: { accountName?: string; method?: SimMethod; times?: number } = {}): void {
    this.failNext(() => TelegramError.floodWait(seconds), filter);
  }

  /** Calls for this account fail as if Telegram could not be reached. */
  setUnreachable(accountName: string, unreachable = true): void {
    if (unreachable) this.unreachable.add(accountName);
    else this.unreachable.delete(accountName);
  }

  /** Calls for this account never answer (they end by their timeout or signal). */
  setHanging(accountName: string, hanging = true): void {
    if (hanging) this.hanging.add(accountName);
    else this.hanging.delete(accountName);
  }

  setLatency(milliseconds: number): void {
    this.latencyMs = milliseconds;
  }

  callsOf(method: SimMethod, accountName?: string): SimCall[] {
    return this.calls.filter((call) => call.method === method && (accountName === undefined || call.accountName === accountName));
  }

  // ----- the port ----------------------------------------------------------------------------

  async getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    return this.call('getMe', session, [], options, (user) => this.userView(user));
  }

  async wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    await this.call('wakeUp', session, [], options, (_user, authorization) => {
      authorization.dateActive = now();
    });
  }

  async exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    return this.call('exportSession', session, [], options, () => session.sessionString);
  }

  async getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    return this.call('getAuthorizations', session, [], options, (user, current) =>
      [...this.authorizations.values()]
        .filter((a) => a.userId === user.id && !a.revokedReason)
        .map((a) => ({
          hash: a === current ? '0' : a.hash,
          current: a === current,
          officialApp: a.officialApp,
          deviceModel: a.deviceModel,
          platform: a.platform,
          systemVersion: a.systemVersion,
          appName: a.appName,
          appVersion: a.appVersion,
          ip: a.ip,
          country: a.country,
          region: a.region,
          dateCreated: a.dateCreated,
          dateActive: a.dateActive,
        })),
    );
  }

  async resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    await this.call('resetAuthorization', session, [hash], options, (user) => {
      const target = [...this.authorizations.values()].find((a) => a.userId === user.id && a.hash === hash && !a.revokedReason);
      if (!target) throw new TelegramError('not_found', 'Telegram answered HASH_INVALID', { rpcMessage: 'HASH_INVALID' });
      target.revokedReason = 'SESSION_REVOKED';
    });
  }

  async getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    return this.call('getOfficialMessages', session, [limit], options, (user) => this.history(user.id, OFFICIAL_USER_ID).slice(0, limit));
  }

  /** Like Telegram: the chats the user has (joined or written in), the latest message first. */
  async getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    return this.call('getDialogs', session, [limit], options, (user) => {
      const prefix = `${user.id}:`;
      return [...this.histories.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, messages], order) => ({ chat: this.chats.get(key.slice(prefix.length)), last: messages.at(-1)?.id ?? 0, order }))
        .filter((entry): entry is { chat: SimChat; last: number; order: number } => entry.chat !== undefined)
        // Chats joined without a message yet: the later join is the newer dialog.
        .sort((a, b) => b.last - a.last || b.order - a.order)
        .slice(0, limit)
        .map(({ chat }) => ({
          id: chat.id,
          title: chat.title,
          kind: chat.forum ? ('forum' as const) : chat.type,
          ...(chat.username ? { username: chat.username } : {}),
        }));
    });
  }

  async sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.call('sendMessage', session, [chat, text, options?.threadId], options, (user) => {
      const target = this.resolveChat(chat);
      const sent = this.append(user.id, target.id, {
        text,
        senderId: user.id,
        out: true,
        threadId: options?.threadId,
        replyToMessageId: options?.replyToMessageId,
      });
      this.botAnswer(user, target, text, sent);
      return sent;
    });
  }

  async sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.call('sendDice', session, [chat, emoji, options?.threadId], options, (user) => {
      const target = this.resolveChat(chat);
      const sent = this.append(user.id, target.id, {
        text: emoji,
        senderId: user.id,
        out: true,
        threadId: options?.threadId,
        hasMedia: true,
        mediaKind: 'dice',
        diceValue: randomInt(1, 7),
      });
      this.botAnswer(user, target, emoji, sent);
      return sent;
    });
  }

  async deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    return this.call('deleteMessages', session, [chat, [...messageIds]], options, (user) => {
      const target = this.resolveChat(chat);
      const key = `${user.id}:${target.id}`;
      const list = this.histories.get(key) ?? [];
      // Like Telegram: in a private chat either side's messages may be revoked; in groups (no admin rights here) only one's own.
      const removable = new Set(list.filter((m) => messageIds.includes(m.id) && (m.out || target.type === 'user')).map((m) => m.id));
      if (removable.size === 0) return;
      this.histories.set(
        key,
        list.filter((m) => !removable.has(m.id)),
      );
      this.deletions.push({ userId: user.id, chatId: target.id, messageIds: [...removable], at: Date.now() });
    });
  }

  async getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    return this.call('getMessages', session, [chat], options, (user) => {
      const target = this.resolveChat(chat);
      const all = this.history(user.id, target.id);
      if (options?.ids) return all.filter((m) => options.ids?.includes(m.id));
      return all.filter((m) => m.id > (options?.minId ?? 0)).slice(0, options?.limit ?? 20);
    });
  }

  async clickButton(
    session: TelegramSession,
    chat: TelegramChatRef,
    messageId: number,
    buttonText: string,
    options?: CallOptions,
  ): Promise<ButtonClickResult> {
    return this.call('clickButton', session, [chat, messageId, buttonText], options, (user) => {
      const target = this.resolveChat(chat);
      const message = this.histories.get(`${user.id}:${target.id}`)?.find((m) => m.id === messageId);
      if (!message) throw new TelegramError('not_found', `Message ${messageId} not found`, { rpcMessage: 'MESSAGE_ID_INVALID' });
      const button = message.buttons.flat().find((b) => b.text.includes(buttonText));
      if (!button) throw new TelegramError('not_found', `No button "${buttonText}" on message ${messageId}`, { rpcMessage: 'BUTTON_NOT_FOUND' });
      if (button.kind === 'reply') {
        const sent = this.append(user.id, target.id, { text: button.text, senderId: user.id, out: true });
        this.botAnswer(user, target, button.text, sent);
        return { kind: 'sent', message: sent };
      }
      if (button.kind === 'url') return { kind: 'callback', alert: false, url: button.url };
      const answer = target.bot?.onCallback?.(button.text, message, { user, message });
      if (answer?.edit) {
        message.text = answer.edit.text;
        message.editDate = now();
        if (answer.edit.inlineButtons) message.buttons = buttonsOf({ text: '', inlineButtons: answer.edit.inlineButtons });
        this.emit(user.id, target, message, 'edited');
      }
      if (answer?.reply) this.botSend(user, target, answer.reply);
      return { kind: 'callback', answer: answer?.answer, alert: answer?.alert ?? false };
    });
  }

  async waitForReply(
    session: TelegramSession,
    chat: TelegramChatRef,
    afterMessageId: number,
    options?: WaitForReplyOptions,
  ): Promise<TelegramMessage | null> {
    const user = await this.call('waitForReply', session, [chat, afterMessageId], { signal: options?.signal }, (u) => u);
    const target = this.resolveChat(chat);
    const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (options?.signal?.aborted) throw TelegramError.aborted();
      const found = (this.histories.get(`${user.id}:${target.id}`) ?? []).find(
        (m) =>
          !m.out &&
          (options?.fromId === undefined || m.senderId === options.fromId) &&
          (m.id > afterMessageId || (options?.acceptEdits === true && m.editDate !== undefined)),
      );
      if (found) return { ...found };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return null;
  }

  async downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    return this.call('downloadMedia', session, [chat, messageId], options, (user) => {
      const target = this.resolveChat(chat);
      const message = this.histories.get(`${user.id}:${target.id}`)?.find((m) => m.id === messageId);
      if (!message) throw new TelegramError('not_found', `Message ${messageId} not found`, { rpcMessage: 'MESSAGE_ID_INVALID' });
      return message.photo ? { data: message.photo, mimeType: 'image/jpeg' } : null;
    });
  }

  async subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    const user = await this.call('subscribe', session, [], options, (u) => u);
    const entry = { userId: user.id, listener };
    const set = this.subscribers.get(user.id) ?? new Set();
    set.add(entry);
    this.subscribers.set(user.id, set);
    return {
      unsubscribe: async () => {
        set.delete(entry);
      },
    };
  }

  /** How many listeners are subscribed for a user (to prove that delete stops listeners). */
  subscriberCount(userId: string): number {
    return this.subscribers.get(userId)?.size ?? 0;
  }

  async startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart> {
    return this.loginCall('startPhoneLogin', target.accountName, [phoneNumber], options, () => {
      const phone = phoneNumber.replace(/[^\d]/g, '');
      if (phone.length < 5) throw new TelegramError('invalid_credentials', 'Telegram refused the login data (PHONE_NUMBER_INVALID)', { rpcMessage: 'PHONE_NUMBER_INVALID' });
      const user = [...this.users.values()].find((u) => u.phone === phone);
      const code = String(randomInt(10_000, 100_000));
      const loginId = randomBytes(12).toString('hex');
      this.logins.set(loginId, { kind: 'phone', target, phone, code, userId: user?.id, passwordPending: false });
      if (user) this.addOfficialMessage(user.id, `Login code: ${code}. Do not give this code to anyone.`);
      return { loginId, codeType: user ? 'app' : 'sms' };
    });
  }

  async completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep> {
    const login = this.logins.get(loginId);
    if (!login || login.kind !== 'phone') throw new TelegramError('login_not_found', 'No pending login with this id');
    return this.loginCall('completePhoneLogin', login.target.accountName, [loginId], options, () => {
      if (!login.passwordPending && code.trim() !== login.code) {
        throw new TelegramError('invalid_credentials', 'Telegram refused the login data (PHONE_CODE_INVALID)', { rpcMessage: 'PHONE_CODE_INVALID' });
      }
      const user = login.userId ? this.users.get(login.userId) : undefined;
      if (!user) throw new TelegramError('invalid_credentials', 'Telegram refused the login data (PHONE_NUMBER_UNOCCUPIED)', { rpcMessage: 'PHONE_NUMBER_UNOCCUPIED' });
      if (user.password !== undefined) {
        login.passwordPending = true;
        if (password === undefined) return { status: 'password_required', hint: user.passwordHint };
        if (password !== user.password) {
          throw new TelegramError('invalid_credentials', 'Telegram refused the login data (PASSWORD_HASH_INVALID)', { rpcMessage: 'PASSWORD_HASH_INVALID' });
        }
      }
      this.logins.delete(loginId);
      return { status: 'success', sessionString: this.issueSession(user.id), user: this.userView(user) };
    });
  }

  async startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus> {
    return this.loginCall('startQrLogin', target.accountName, [], options, () => {
      const loginId = randomBytes(12).toString('hex');
      const token = randomBytes(24).toString('base64url');
      const login: PendingQrLogin = { kind: 'qr', target, token, state: 'waiting_scan', expiresAt: now() + 30 };
      this.logins.set(loginId, login);
      return this.qrStatus(loginId, login);
    });
  }

  async getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus> {
    const login = this.logins.get(loginId);
    if (!login || login.kind !== 'qr') throw new TelegramError('login_not_found', 'No pending login with this id');
    return this.loginCall('getQrLogin', login.target.accountName, [loginId], options, () => {
      if (login.state === 'waiting_scan' && login.expiresAt < now()) login.state = 'expired';
      return this.qrStatus(loginId, login);
    });
  }

  async submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus> {
    const login = this.logins.get(loginId);
    if (!login || login.kind !== 'qr') throw new TelegramError('login_not_found', 'No pending login with this id');
    return this.loginCall('submitQrPassword', login.target.accountName, [loginId], options, () => {
      const user = login.userId ? this.users.get(login.userId) : undefined;
      if (login.state !== 'password_required' || !user) throw new TelegramError('invalid_credentials', 'This login does not wait for a password');
      if (password !== user.password) {
        throw new TelegramError('invalid_credentials', 'Telegram refused the login data (PASSWORD_HASH_INVALID)', { rpcMessage: 'PASSWORD_HASH_INVALID' });
      }
      login.state = 'success';
      login.sessionString = this.issueSession(user.id);
      return this.qrStatus(loginId, login);
    });
  }

  async cancelLogin(loginId: string): Promise<void> {
    this.logins.delete(loginId);
  }

  async disconnect(accountName: string): Promise<void> {
    this.disconnected.push(accountName);
  }

  // ----- internals ---------------------------------------------------------------------------

  private findQr(loginIdOrToken: string): PendingQrLogin {
    const direct = this.logins.get(loginIdOrToken);
    if (direct?.kind === 'qr') return direct;
    const byToken = [...this.logins.values()].find((l): l is PendingQrLogin => l.kind === 'qr' && l.token === loginIdOrToken);
    if (!byToken) throw new Error(`No QR login ${loginIdOrToken}`);
    return byToken;
  }

  private confirmQr(login: PendingQrLogin): void {
    const user = login.userId ? this.users.get(login.userId) : undefined;
    if (!user) return;
    if (user.password !== undefined) {
      login.state = 'password_required';
      return;
    }
    login.state = 'success';
    login.sessionString = this.issueSession(user.id);
  }

  private qrStatus(loginId: string, login: PendingQrLogin): QrLoginStatus {
    const user = login.userId ? this.users.get(login.userId) : undefined;
    return {
      loginId,
      state: login.state,
      qrUrl: `tg://login?token=${login.token}`,
      expiresAt: login.expiresAt,
      passwordHint: login.state === 'password_required' ? user?.passwordHint : undefined,
      sessionString: login.state === 'success' ? login.sessionString : undefined,
      user: login.state === 'success' && user ? this.userView(user) : undefined,
      error: login.error,
    };
  }

  private userView(user: SimUser): TelegramUser {
    return { id: user.id, username: user.username, firstName: user.firstName, phone: user.phone };
  }

  private authorizationOf(sessionString: string): SimAuthorization | undefined {
    const parts = parseSessionString(sessionString);
    return parts ? this.authorizations.get(parts.authKey.toString('base64')) : undefined;
  }

  private resolveChat(chat: TelegramChatRef): SimChat {
    const key = String(chat);
    const found =
      this.chats.get(key) ?? [...this.chats.values()].find((c) => c.username !== undefined && `@${c.username}`.toLowerCase() === key.toLowerCase().replace(/^@?/, '@'));
    if (!found) throw new TelegramError('not_found', `Chat ${key} not found`, { rpcMessage: 'USERNAME_NOT_OCCUPIED' });
    return found;
  }

  private append(userId: string, chatId: string, input: Partial<StoredMessage> & { text: string; out: boolean }): StoredMessage {
    const message: StoredMessage = {
      id: this.nextMessageId++,
      chatId,
      date: now(),
      buttons: [],
      hasMedia: false,
      ...input,
    };
    const key = `${userId}:${chatId}`;
    const list = this.histories.get(key) ?? [];
    list.push(message);
    this.histories.set(key, list);
    const chat = this.chats.get(chatId);
    if (chat && !message.out) this.emit(userId, chat, message, 'new');
    return message;
  }

  private emit(userId: string, chat: SimChat, message: StoredMessage, event: 'new' | 'edited'): void {
    const incoming: TelegramIncomingMessage = {
      ...message,
      buttons: message.buttons.map((row) => [...row]),
      chatTitle: chat.title,
      chatType: chat.type,
      event,
    };
    delete (incoming as Partial<StoredMessage>).photo;
    for (const entry of this.subscribers.get(userId) ?? []) {
      setImmediate(() => entry.listener(incoming));
    }
  }

  private botAnswer(user: SimUser, chat: SimChat, text: string, sent: StoredMessage): void {
    for (const member of chat.groupOnMessage?.(text, { user, threadId: sent.threadId, message: sent }) ?? []) {
      this.append(user.id, chat.id, {
        text: member.text,
        senderId: member.from.id,
        senderName: member.from.name ?? member.from.username ?? 'Someone',
        senderUsername: member.from.username,
        out: false,
        threadId: sent.threadId,
        replyToMessageId: member.replyToOurs ? sent.id : undefined,
      });
    }
    const answer = chat.bot?.onMessage?.(text, { user, threadId: sent.threadId, message: sent });
    if (!answer) return;
    for (const reply of Array.isArray(answer) ? answer : [answer]) this.botSend(user, chat, reply, sent.threadId);
  }

  private botSend(user: SimUser, chat: SimChat, reply: SimReply, threadId?: number): void {
    const bot = chat.bot;
    const message = this.append(user.id, chat.id, {
      text: reply.text,
      senderId: bot?.id ?? chat.id,
      senderName: chat.title,
      senderUsername: bot?.username,
      out: false,
      threadId,
      buttons: buttonsOf(reply),
      hasMedia: reply.photo !== undefined,
      mediaKind: reply.photo ? 'photo' : undefined,
      photo: reply.photo,
    });
    const edit = reply.thenEdit;
    if (edit) {
      setTimeout(() => {
        message.text = edit.text;
        message.editDate = now();
        this.emit(user.id, chat, message, 'edited');
      }, edit.afterMs).unref();
    }
  }

  private takeFault(method: SimMethod, accountName: string): TelegramError | undefined {
    const index = this.faults.findIndex(
      (f) => f.remaining > 0 && (f.method === undefined || f.method === method) && (f.accountName === undefined || f.accountName === accountName),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults.splice(index, 1);
    return fault.error();
  }

  /** Latency, injected faults, unreachable and hanging accounts, timeout and abort: like a network call. */
  private async network(method: SimMethod, accountName: string, options: CallOptions | undefined): Promise<void> {
    const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = options?.signal;
    if (signal?.aborted) throw TelegramError.aborted();
    const hang = this.hanging.has(accountName);
    const delay = hang ? timeoutMs : this.latencyMs;
    if (delay > 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          if (hang || delay >= timeoutMs) reject(TelegramError.timeout(timeoutMs));
          else resolve();
        }, Math.min(delay, timeoutMs));
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(TelegramError.aborted());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    if (this.unreachable.has(accountName)) throw new TelegramError('connection_error', 'Cannot reach Telegram (ECONNREFUSED)');
    const fault = this.takeFault(method, accountName);
    if (fault) throw fault;
  }

  private async call<T>(
    method: SimMethod,
    session: TelegramSession,
    args: unknown[],
    options: CallOptions | undefined,
    body: (user: SimUser, authorization: SimAuthorization) => T,
  ): Promise<T> {
    this.calls.push({ method, accountName: session.accountName, args });
    await this.network(method, session.accountName, options);
    const authorization = this.authorizationOf(session.sessionString);
    if (!authorization) throw TelegramError.sessionInvalid('AUTH_KEY_UNREGISTERED');
    if (authorization.revokedReason) throw TelegramError.sessionInvalid(authorization.revokedReason);
    const user = this.users.get(authorization.userId);
    if (!user) throw TelegramError.sessionInvalid('USER_DEACTIVATED');
    authorization.dateActive = now();
    return body(user, authorization);
  }

  private async loginCall<T>(method: SimMethod, accountName: string, args: unknown[], options: CallOptions | undefined, body: () => T): Promise<T> {
    this.calls.push({ method, accountName, args });
    await this.network(method, accountName, options);
    return body();
  }
}
