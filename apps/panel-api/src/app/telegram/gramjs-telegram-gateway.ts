import { englishText } from '@shared/panel-texts';
import { Logger as NestLogger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Api, helpers, Logger as GramLogger, password as gramPassword, TelegramClient, utils } from 'telegram';
import { EditedMessage, EditedMessageEvent } from 'telegram/events/EditedMessage';
import { NewMessage, NewMessageEvent } from 'telegram/events';
import { LogLevel } from 'telegram/extensions/Logger';
import { StringSession } from 'telegram/sessions';
import { TelegramClientParams } from 'telegram/client/telegramBaseClient';
import { mapGramJsError } from './gramjs-error-mapping';
import { httpProxySocketClass } from './http-connect-socket';
import { TelegramError } from './telegram-error';
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
  TelegramProxy,
  TelegramSession,
  TelegramUser,
  WaitForReplyOptions,
} from './telegram-gateway';

export const OFFICIAL_SERVICE_USER_ID = 777000;

export interface TelegramApiCredentials {
  apiId: number;
  apiHash: string;
}

/** What the adapter uses of a GramJS client; tests hand in a stub of exactly this. */
export type GramJsClient = Pick<
  TelegramClient,
  | 'connect'
  | 'destroy'
  | 'invoke'
  | 'getMe'
  | 'getInputEntity'
  | 'getMessages'
  | 'sendMessage'
  | 'deleteMessages'
  | 'downloadMedia'
  | 'getDialogs'
  | 'addEventHandler'
  | 'removeEventHandler'
  | 'sendCode'
  | '_switchDC'
  | 'session'
>;

export type GramJsClientFactory = (session: StringSession, credentials: TelegramApiCredentials, params: TelegramClientParams) => GramJsClient;

export interface GramJsGatewayOptions {
  /** API id and hash from `.telegram_api.json`; undefined when not configured. */
  credentials: () => TelegramApiCredentials | undefined;
  /** Pooled connections unused for this long are closed (default 10 minutes). */
  idleCloseMs?: number;
  /** Deadline of a call when the caller gives none (default 15 s). */
  defaultTimeoutMs?: number;
  clientFactory?: GramJsClientFactory;
}

interface PooledClient {
  key: string;
  client: GramJsClient;
  ready: Promise<void>;
  lastUsed: number;
  subscriptions: number;
}

interface PendingLogin {
  client: GramJsClient;
  accountName: string;
  kind: 'phone' | 'qr';
  phoneNumber?: string;
  phoneCodeHash?: string;
  passwordPending: boolean;
  qr?: { token: Buffer; expiresAt: number; scanned: boolean; state: QrLoginStatus['state']; hint?: string; error?: string };
  finished?: { sessionString: string; user: TelegramUser };
  startedAt: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_IDLE_CLOSE_MS = 10 * 60_000;
const WAIT_POLL_MS = 1_000;

const defaultClientFactory: GramJsClientFactory = (session, credentials, params) =>
  new TelegramClient(session, credentials.apiId, credentials.apiHash, params);

/** GramJS proxy options (SOCKS and MTProxy are native; HTTP goes through our CONNECT socket). */
export function gramJsProxyParams(proxy: TelegramProxy | undefined, timeoutMs: number): Partial<TelegramClientParams> {
  if (!proxy) return {};
  const timeout = Math.max(1, Math.ceil(timeoutMs / 1000));
  switch (proxy.type) {
    case 'socks5':
    case 'socks4':
      return {
        proxy: { ip: proxy.host, port: proxy.port, socksType: proxy.type === 'socks5' ? 5 : 4, username: proxy.username, password: proxy.password, timeout },
      };
    case 'mtproxy':
      return { proxy: { ip: proxy.host, port: proxy.port, secret: proxy.secret ?? '', MTProxy: true, timeout } };
    case 'http':
      return { networkSocket: httpProxySocketClass(proxy, timeoutMs) };
  }
}

function bigIntToString(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function peerIdOf(peer: Api.TypePeer | undefined): string | undefined {
  if (!peer) return undefined;
  return utils.getPeerId(peer);
}

function buttonsOf(markup: Api.TypeReplyMarkup | undefined): TelegramButton[][] {
  if (!markup || !('rows' in markup)) return [];
  const reply = markup instanceof Api.ReplyKeyboardMarkup;
  return markup.rows.map((row) =>
    row.buttons.map((button): TelegramButton => {
      if (reply) return { text: button.text, kind: 'reply' };
      if (button instanceof Api.KeyboardButtonCallback) return { text: button.text, kind: 'callback' };
      if (button instanceof Api.KeyboardButtonUrl) return { text: button.text, kind: 'url', url: button.url };
      return { text: button.text, kind: 'other' };
    }),
  );
}

export function messageFromGramJs(message: Api.Message): TelegramMessage {
  const media = message.media;
  let mediaKind: TelegramMessage['mediaKind'];
  let diceValue: number | undefined;
  if (media instanceof Api.MessageMediaDice) {
    mediaKind = 'dice';
    diceValue = media.value;
  } else if (media instanceof Api.MessageMediaPhoto) mediaKind = 'photo';
  else if (media instanceof Api.MessageMediaDocument) mediaKind = 'document';
  else if (media) mediaKind = 'other';
  const replyTo = message.replyTo instanceof Api.MessageReplyHeader ? message.replyTo : undefined;
  return {
    id: message.id,
    chatId: peerIdOf(message.peerId) ?? '',
    senderId: peerIdOf(message.fromId) ?? (message.out ? undefined : peerIdOf(message.peerId)),
    out: message.out === true,
    date: message.date,
    editDate: message.editDate,
    // Telegram sends a dice with an empty text; its emoji is the text a user sees (and what bots answer to).
    text: message.message || (media instanceof Api.MessageMediaDice ? media.emoticon : ''),
    threadId: replyTo?.forumTopic ? (replyTo.replyToTopId ?? replyTo.replyToMsgId) : replyTo?.replyToTopId,
    replyToMessageId: replyTo?.replyToMsgId,
    buttons: buttonsOf(message.replyMarkup),
    hasMedia: media !== undefined && !(media instanceof Api.MessageMediaEmpty),
    mediaKind,
    diceValue,
  };
}

/** Telegram's SESSION_PASSWORD_NEEDED, as GramJS throws it or once deadline() mapped it to a TelegramError. */
function isPasswordNeeded(error: unknown): boolean {
  if (error instanceof TelegramError) return error.details.rpcMessage === 'SESSION_PASSWORD_NEEDED';
  return (error as { errorMessage?: string } | undefined)?.errorMessage === 'SESSION_PASSWORD_NEEDED';
}

function chatTypeOf(peer: Api.TypePeer): TelegramIncomingMessage['chatType'] {
  if (peer instanceof Api.PeerChannel) return 'channel';
  if (peer instanceof Api.PeerChat) return 'group';
  return 'user';
}

function userOf(user: Api.TypeUser): TelegramUser {
  if (!(user instanceof Api.User)) return { id: bigIntToString(user.id) };
  return { id: bigIntToString(user.id), username: user.username, firstName: user.firstName, lastName: user.lastName, phone: user.phone };
}

/** A GramJS dialog as the chat picker shows it; undefined for what a task cannot target (a deleted user, a forbidden chat). */
export function dialogFromGramJs(dialog: { id?: unknown; title?: string; name?: string; entity?: unknown }): TelegramDialog | undefined {
  const entity = dialog.entity;
  if (dialog.id === undefined || entity === undefined) return undefined;
  const id = bigIntToString(dialog.id);
  if (entity instanceof Api.User) {
    if (entity.deleted) return undefined;
    const title = dialog.title || [entity.firstName, entity.lastName].filter(Boolean).join(' ') || entity.username || id;
    return { id, title, kind: 'user', ...(entity.username ? { username: entity.username } : {}) };
  }
  if (entity instanceof Api.Chat) return { id, title: entity.title || id, kind: 'group' };
  if (entity instanceof Api.Channel) {
    const kind = entity.forum ? 'forum' : entity.megagroup ? 'group' : 'channel';
    return { id, title: entity.title || id, kind, ...(entity.username ? { username: entity.username } : {}) };
  }
  return undefined;
}

function chatRef(chat: TelegramChatRef): string | number {
  if (typeof chat === 'number') return chat;
  return /^-?\d+$/.test(chat) ? chat : chat.startsWith('@') ? chat : `@${chat}`;
}

/**
 * The production TelegramGateway on GramJS: one TelegramClient per account (StringSession in
 * memory; storing it is the caller's business), reused between calls, closed after 10 idle minutes
 * and on shutdown. Every call ends within its deadline; a client stuck connecting is destroyed.
 */
export class GramJsTelegramGateway implements TelegramGateway {
  private readonly logger = new NestLogger('TelegramGateway');
  private readonly pool = new Map<string, PooledClient>();
  private readonly logins = new Map<string, PendingLogin>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleCloseMs: number;
  private readonly defaultTimeoutMs: number;
  private readonly clientFactory: GramJsClientFactory;
  private closed = false;

  constructor(private readonly options: GramJsGatewayOptions) {
    this.idleCloseMs = options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.clientFactory = options.clientFactory ?? defaultClientFactory;
    this.sweeper = setInterval(() => void this.closeIdle().catch((error: unknown) => this.logger.warn(`Closing idle Telegram clients failed: ${(error as Error).message}`)), Math.min(60_000, this.idleCloseMs));
    this.sweeper.unref();
  }

  // ----- connections -------------------------------------------------------------------------

  private credentials(): TelegramApiCredentials {
    const credentials = this.options.credentials();
    if (!credentials) {
      throw new TelegramError('not_configured', englishText('runMessage', 'telegram_not_configured'));
    }
    return credentials;
  }

  private newClient(sessionString: string, proxy: TelegramProxy | undefined, timeoutMs: number): GramJsClient {
    const session = new StringSession(sessionString);
    return this.clientFactory(session, this.credentials(), {
      connectionRetries: 1,
      requestRetries: 1,
      retryDelay: 0,
      autoReconnect: true,
      reconnectRetries: 3,
      floodSleepThreshold: 0,
      timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      baseLogger: new GramLogger(LogLevel.NONE),
      deviceModel: 'signpulse panel',
      appVersion: '1.0',
      ...gramJsProxyParams(proxy, timeoutMs),
    });
  }

  private async connectClient(client: GramJsClient): Promise<void> {
    const connected = await client.connect();
    // GramJS answers false (instead of throwing) when every connection attempt failed.
    if (connected === false && !(await this.isConnected(client))) {
      throw new TelegramError('connection_error', englishText('runMessage', 'telegram_unreachable', { reason: 'connection failed' }));
    }
  }

  private async isConnected(client: GramJsClient): Promise<boolean> {
    return (client as unknown as { connected?: boolean }).connected === true;
  }

  private acquire(session: TelegramSession, timeoutMs: number): PooledClient {
    const key = `${session.sessionString}|${JSON.stringify(session.proxy ?? null)}`;
    const existing = this.pool.get(session.accountName);
    if (existing && existing.key === key) {
      existing.lastUsed = Date.now();
      return existing;
    }
    if (existing) void this.release(session.accountName, existing);
    const client = this.newClient(session.sessionString, session.proxy, timeoutMs);
    const pooled: PooledClient = { key, client, ready: this.connectClient(client), lastUsed: Date.now(), subscriptions: 0 };
    pooled.ready.catch(() => {
      if (this.pool.get(session.accountName) === pooled) void this.release(session.accountName, pooled);
    });
    this.pool.set(session.accountName, pooled);
    return pooled;
  }

  private async release(accountName: string, pooled: PooledClient): Promise<void> {
    if (this.pool.get(accountName) === pooled) this.pool.delete(accountName);
    await this.destroyClient(pooled.client);
  }

  private async destroyClient(client: GramJsClient): Promise<void> {
    try {
      await client.destroy();
    } catch (error) {
      this.logger.debug(`Closing a Telegram client failed: ${(error as Error).message}`);
    }
  }

  private async closeIdle(): Promise<void> {
    const cutoff = Date.now() - this.idleCloseMs;
    for (const [name, pooled] of this.pool) {
      if (pooled.subscriptions === 0 && pooled.lastUsed < cutoff) await this.release(name, pooled);
    }
    for (const [id, login] of this.logins) {
      if (login.startedAt < Date.now() - 15 * 60_000) await this.cancelLogin(id);
    }
  }

  /** Runs `work` with a deadline and the caller's signal; every failure becomes a TelegramError. */
  private async deadline<T>(options: CallOptions | undefined, work: () => Promise<T>, onGiveUp?: () => void): Promise<T> {
    if (this.closed) throw new TelegramError('connection_error', englishText('runMessage', 'telegram_shut_down'));
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    const signal = options?.signal;
    if (signal?.aborted) throw TelegramError.aborted();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(TelegramError.timeout(timeoutMs)), timeoutMs);
      onAbort = () => reject(TelegramError.aborted());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const running = work();
    try {
      return await Promise.race([running, stop]);
    } catch (error) {
      const mapped = mapGramJsError(error);
      if (mapped.kind === 'timeout' || mapped.kind === 'aborted' || mapped.kind === 'connection_error') onGiveUp?.();
      running.catch(() => undefined);
      throw mapped;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private async withClient<T>(session: TelegramSession, options: CallOptions | undefined, work: (client: GramJsClient) => Promise<T>): Promise<T> {
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    let pooled: PooledClient | undefined;
    return this.deadline(
      options,
      async () => {
        pooled = this.acquire(session, timeoutMs);
        await pooled.ready;
        const result = await work(pooled.client);
        pooled.lastUsed = Date.now();
        return result;
      },
      // A client that timed out or lost its connection is not reused: the next call starts afresh.
      () => {
        if (pooled && pooled.subscriptions === 0) void this.release(session.accountName, pooled);
      },
    );
  }

  // ----- account calls -----------------------------------------------------------------------

  async getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    return this.withClient(session, options, async (client) => userOf(await client.getMe()));
  }

  async wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    await this.withClient(session, options, (client) => client.invoke(new Api.account.UpdateStatus({ offline: false })));
  }

  async exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    return this.withClient(session, options, async (client) => {
      const saved = (client.session as StringSession).save();
      return saved || session.sessionString;
    });
  }

  async getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    return this.withClient(session, options, async (client) => {
      const result = await client.invoke(new Api.account.GetAuthorizations());
      return result.authorizations.map((a) => ({
        hash: bigIntToString(a.hash),
        current: a.current === true,
        officialApp: a.officialApp === true,
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
      }));
    });
  }

  async resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    if (!/^-?\d{1,20}$/.test(hash)) throw new TelegramError('not_found', `Invalid authorization hash ${hash}`);
    await this.withClient(session, options, (client) => client.invoke(new Api.account.ResetAuthorization({ hash: helpers.returnBigInt(hash) })));
  }

  async getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    return this.withClient(session, options, async (client) => {
      const peer = await this.officialPeer(client);
      // messages.getHistory only reads; nothing here calls readHistory, so nothing is marked read.
      const history = await client.invoke(
        new Api.messages.GetHistory({ peer, limit, offsetId: 0, offsetDate: 0, addOffset: 0, maxId: 0, minId: 0, hash: helpers.returnBigInt(0) }),
      );
      const messages = 'messages' in history ? history.messages : [];
      return messages.filter((m): m is Api.Message => m instanceof Api.Message).map(messageFromGramJs);
    });
  }

  async getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    return this.withClient(session, options, async (client) => {
      const dialogs = await client.getDialogs({ limit });
      return dialogs.map(dialogFromGramJs).filter((dialog): dialog is TelegramDialog => dialog !== undefined);
    });
  }

  private async officialPeer(client: GramJsClient): Promise<Api.TypeInputPeer> {
    try {
      return await client.getInputEntity(OFFICIAL_SERVICE_USER_ID);
    } catch {
      // A fresh session has no access hash for 777000 yet; the dialog list brings it into the cache.
      await client.getDialogs({ limit: 100 });
      return client.getInputEntity(OFFICIAL_SERVICE_USER_ID);
    }
  }

  async sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.withClient(session, options, async (client) =>
      messageFromGramJs(
        await client.sendMessage(chatRef(chat), {
          message: text,
          replyTo: options?.replyToMessageId ?? options?.threadId,
          topMsgId: options?.threadId,
        }),
      ),
    );
  }

  async sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.withClient(session, options, async (client) => {
      const peer = await client.getInputEntity(chatRef(chat));
      const updates = await client.invoke(
        new Api.messages.SendMedia({
          peer,
          media: new Api.InputMediaDice({ emoticon: emoji }),
          message: '',
          randomId: helpers.generateRandomLong(),
          replyTo: options?.threadId ? new Api.InputReplyToMessage({ replyToMsgId: options.threadId, topMsgId: options.threadId }) : undefined,
        }),
      );
      const sent = this.sentMessageOf(updates);
      if (!sent) throw new TelegramError('rpc_error', 'Telegram did not return the sent dice');
      return messageFromGramJs(sent);
    });
  }

  private sentMessageOf(updates: Api.TypeUpdates): Api.Message | undefined {
    if (!('updates' in updates)) return undefined;
    for (const update of updates.updates) {
      if ((update instanceof Api.UpdateNewMessage || update instanceof Api.UpdateNewChannelMessage) && update.message instanceof Api.Message) {
        return update.message;
      }
    }
    return undefined;
  }

  async deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    if (messageIds.length === 0) return;
    // GramJS sends channels.deleteMessages for channels and supergroups, messages.deleteMessages (with revoke) otherwise.
    await this.withClient(session, options, (client) => client.deleteMessages(chatRef(chat), [...messageIds], { revoke: true }));
  }

  async getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    return this.withClient(session, options, async (client) => {
      const messages = options?.ids
        ? await client.getMessages(chatRef(chat), { ids: options.ids })
        : await client.getMessages(chatRef(chat), { limit: options?.limit ?? 20, minId: options?.minId ?? 0 });
      return messages.filter((m): m is Api.Message => m instanceof Api.Message).map(messageFromGramJs);
    });
  }

  async clickButton(
    session: TelegramSession,
    chat: TelegramChatRef,
    messageId: number,
    buttonText: string,
    options?: CallOptions,
  ): Promise<ButtonClickResult> {
    return this.withClient(session, options, async (client) => {
      const [message] = await client.getMessages(chatRef(chat), { ids: [messageId] });
      if (!(message instanceof Api.Message)) throw new TelegramError('not_found', englishText('runMessage', 'telegram_message_missing', { message: messageId }));
      const markup = message.replyMarkup;
      const rows = markup && 'rows' in markup ? markup.rows : [];
      const button = rows.flatMap((row) => row.buttons).find((b) => b.text.includes(buttonText));
      if (!button) throw new TelegramError('not_found', englishText('runMessage', 'telegram_no_button', { text: buttonText, message: messageId }));
      if (markup instanceof Api.ReplyKeyboardMarkup) {
        return { kind: 'sent', message: messageFromGramJs(await client.sendMessage(chatRef(chat), { message: button.text })) };
      }
      if (button instanceof Api.KeyboardButtonUrl) return { kind: 'callback', alert: false, url: button.url };
      if (!(button instanceof Api.KeyboardButtonCallback)) throw new TelegramError('not_found', englishText('runMessage', 'telegram_button_not_pressable', { text: button.text }));
      const answer = await client.invoke(
        new Api.messages.GetBotCallbackAnswer({ peer: await client.getInputEntity(chatRef(chat)), msgId: messageId, data: button.data }),
      );
      return { kind: 'callback', answer: answer.message, alert: answer.alert === true, url: answer.url };
    });
  }

  async waitForReply(
    session: TelegramSession,
    chat: TelegramChatRef,
    afterMessageId: number,
    options?: WaitForReplyOptions,
  ): Promise<TelegramMessage | null> {
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const remaining = deadline - Date.now();
      const messages = await this.getMessages(session, chat, {
        limit: 20,
        minId: options?.acceptEdits ? 0 : afterMessageId,
        signal: options?.signal,
        timeoutMs: Math.max(1_000, remaining),
      });
      const found = messages
        .reverse()
        .find(
          (m) =>
            !m.out &&
            (options?.fromId === undefined || m.senderId === options.fromId) &&
            (m.id > afterMessageId || (options?.acceptEdits === true && m.editDate !== undefined)),
        );
      if (found) return found;
      if (options?.signal?.aborted) throw TelegramError.aborted();
      await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
    return null;
  }

  async downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    return this.withClient(session, options, async (client) => {
      const [message] = await client.getMessages(chatRef(chat), { ids: [messageId] });
      if (!(message instanceof Api.Message)) throw new TelegramError('not_found', englishText('runMessage', 'telegram_message_missing', { message: messageId }));
      if (!message.media) return null;
      const data = await client.downloadMedia(message, {});
      if (!data || typeof data === 'string') return null;
      const mimeType =
        message.media instanceof Api.MessageMediaDocument && message.media.document instanceof Api.Document
          ? message.media.document.mimeType
          : 'image/jpeg';
      return { data, mimeType };
    });
  }

  async subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    let pooledRef: PooledClient | undefined;
    const newEvents = new NewMessage({});
    const editedEvents = new EditedMessage({});
    const deliver = async (message: Api.Message, event: 'new' | 'edited'): Promise<void> => {
      let chatTitle: string | undefined;
      try {
        const chat = await message.getChat();
        chatTitle = chat ? utils.getDisplayName(chat) : undefined;
      } catch {
        chatTitle = undefined;
      }
      listener({ ...messageFromGramJs(message), chatTitle, chatType: chatTypeOf(message.peerId), event });
    };
    const onNew = (event: NewMessageEvent): void => void deliver(event.message, 'new').catch(() => undefined);
    const onEdited = (event: EditedMessageEvent): void => void deliver(event.message, 'edited').catch(() => undefined);
    await this.withClient(session, options, async (client) => {
      pooledRef = this.pool.get(session.accountName);
      client.addEventHandler(onNew, newEvents);
      client.addEventHandler(onEdited, editedEvents);
      // Telegram starts pushing updates to a connection once it made an authenticated request.
      await client.getMe();
    });
    const pooled = pooledRef;
    if (pooled) pooled.subscriptions += 1;
    let active = true;
    return {
      unsubscribe: async () => {
        if (!active || !pooled) return;
        active = false;
        pooled.subscriptions -= 1;
        pooled.client.removeEventHandler(onNew, newEvents);
        pooled.client.removeEventHandler(onEdited, editedEvents);
        pooled.lastUsed = Date.now();
      },
    };
  }

  // ----- logins ------------------------------------------------------------------------------

  private async loginClient(target: LoginTarget, options: CallOptions | undefined): Promise<GramJsClient> {
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    const client = this.newClient('', target.proxy, timeoutMs);
    await this.deadline(options, () => this.connectClient(client), () => void this.destroyClient(client));
    return client;
  }

  async startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart> {
    const client = await this.loginClient(target, options);
    try {
      const sent = await this.deadline(options, () => client.sendCode(this.credentials(), phoneNumber));
      const loginId = randomBytes(12).toString('hex');
      this.logins.set(loginId, {
        client,
        accountName: target.accountName,
        kind: 'phone',
        phoneNumber,
        phoneCodeHash: sent.phoneCodeHash,
        passwordPending: false,
        startedAt: Date.now(),
      });
      return { loginId, codeType: sent.isCodeViaApp ? 'app' : 'sms' };
    } catch (error) {
      await this.destroyClient(client);
      throw mapGramJsError(error);
    }
  }

  async completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep> {
    const login = this.pendingLogin(loginId, 'phone');
    return this.deadline(options, async () => {
      if (!login.passwordPending) {
        try {
          const result = await login.client.invoke(
            new Api.auth.SignIn({ phoneNumber: login.phoneNumber ?? '', phoneCodeHash: login.phoneCodeHash ?? '', phoneCode: code }),
          );
          if (result instanceof Api.auth.AuthorizationSignUpRequired) {
            throw new TelegramError('invalid_credentials', 'This phone number has no Telegram account (sign up in the app first)');
          }
          return this.finishLogin(loginId, login, result.user);
        } catch (error) {
          if (!isPasswordNeeded(error)) throw error;
          login.passwordPending = true;
        }
      }
      if (password === undefined) {
        const settings = await login.client.invoke(new Api.account.GetPassword());
        return { status: 'password_required', hint: settings.hint };
      }
      return this.finishLogin(loginId, login, await this.checkPassword(login.client, password));
    });
  }

  private async checkPassword(client: GramJsClient, password: string): Promise<Api.TypeUser> {
    const settings = await client.invoke(new Api.account.GetPassword());
    const check = await gramPassword.computeCheck(settings, password);
    const result = await client.invoke(new Api.auth.CheckPassword({ password: check }));
    if (!(result instanceof Api.auth.Authorization)) throw new TelegramError('invalid_credentials', 'Telegram did not accept the login');
    return result.user;
  }

  private finishLogin(loginId: string, login: PendingLogin, user: Api.TypeUser): PhoneLoginStep & { status: 'success' } {
    const sessionString = (login.client.session as StringSession).save();
    login.finished = { sessionString, user: userOf(user) };
    this.logins.delete(loginId);
    void this.destroyClient(login.client);
    return { status: 'success', sessionString, user: userOf(user) };
  }

  async startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus> {
    const client = await this.loginClient(target, options);
    try {
      const credentials = this.credentials();
      const exported = await this.deadline(options, () =>
        client.invoke(new Api.auth.ExportLoginToken({ apiId: credentials.apiId, apiHash: credentials.apiHash, exceptIds: [] })),
      );
      if (!(exported instanceof Api.auth.LoginToken)) throw new TelegramError('rpc_error', 'Telegram did not issue a login token');
      const loginId = randomBytes(12).toString('hex');
      const login: PendingLogin = {
        client,
        accountName: target.accountName,
        kind: 'qr',
        passwordPending: false,
        qr: { token: exported.token, expiresAt: exported.expires, scanned: false, state: 'waiting_scan' },
        startedAt: Date.now(),
      };
      // Telegram pushes updateLoginToken once the code was scanned and accepted on a phone.
      client.addEventHandler((update: Api.TypeUpdate) => {
        if (update instanceof Api.UpdateLoginToken && login.qr) login.qr.scanned = true;
      });
      this.logins.set(loginId, login);
      return this.qrStatus(loginId, login);
    } catch (error) {
      await this.destroyClient(client);
      throw mapGramJsError(error);
    }
  }

  async getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus> {
    const login = this.pendingLogin(loginId, 'qr');
    const qr = login.qr;
    if (!qr || qr.state === 'success' || qr.state === 'failed' || qr.state === 'expired' || qr.state === 'password_required') {
      return this.qrStatus(loginId, login);
    }
    if (!qr.scanned) {
      if (qr.expiresAt < Date.now() / 1000) qr.state = 'expired';
      return this.qrStatus(loginId, login);
    }
    qr.state = 'scanned_wait_confirm';
    try {
      const credentials = this.credentials();
      let result = await this.deadline(options, () =>
        login.client.invoke(new Api.auth.ExportLoginToken({ apiId: credentials.apiId, apiHash: credentials.apiHash, exceptIds: [] })),
      );
      if (result instanceof Api.auth.LoginTokenMigrateTo) {
        const migrated = result;
        await this.deadline(options, () => login.client._switchDC(migrated.dcId));
        result = await this.deadline(options, () => login.client.invoke(new Api.auth.ImportLoginToken({ token: migrated.token })));
      }
      if (result instanceof Api.auth.LoginTokenSuccess && result.authorization instanceof Api.auth.Authorization) {
        this.completeQr(login, result.authorization.user);
      }
    } catch (error) {
      // Each step above runs inside deadline(), which hands on Telegram's error as a TelegramError.
      if (isPasswordNeeded(error)) {
        qr.state = 'password_required';
        login.passwordPending = true;
        const settings = await this.deadline(options, () => login.client.invoke(new Api.account.GetPassword()));
        qr.hint = settings.hint;
      } else {
        const mapped = mapGramJsError(error);
        if (mapped.kind !== 'timeout' && mapped.kind !== 'connection_error' && mapped.kind !== 'flood_wait') {
          qr.state = 'failed';
          qr.error = mapped.message;
        } else throw mapped;
      }
    }
    return this.qrStatus(loginId, login);
  }

  async submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus> {
    const login = this.pendingLogin(loginId, 'qr');
    if (login.qr?.state !== 'password_required') throw new TelegramError('invalid_credentials', 'This login does not wait for a password');
    const user = await this.deadline(options, () => this.checkPassword(login.client, password));
    this.completeQr(login, user);
    return this.qrStatus(loginId, login);
  }

  private completeQr(login: PendingLogin, user: Api.TypeUser): void {
    if (login.qr) login.qr.state = 'success';
    login.finished = { sessionString: (login.client.session as StringSession).save(), user: userOf(user) };
  }

  private qrStatus(loginId: string, login: PendingLogin): QrLoginStatus {
    const qr = login.qr;
    return {
      loginId,
      state: qr?.state ?? 'failed',
      qrUrl: qr ? `tg://login?token=${qr.token.toString('base64url')}` : undefined,
      expiresAt: qr?.expiresAt,
      passwordHint: qr?.state === 'password_required' ? qr.hint : undefined,
      sessionString: login.finished?.sessionString,
      user: login.finished?.user,
      error: qr?.error,
    };
  }

  private pendingLogin(loginId: string, kind: 'phone' | 'qr'): PendingLogin {
    const login = this.logins.get(loginId);
    if (!login || login.kind !== kind) throw new TelegramError('login_not_found', 'No pending login with this id');
    return login;
  }

  async cancelLogin(loginId: string): Promise<void> {
    const login = this.logins.get(loginId);
    if (!login) return;
    this.logins.delete(loginId);
    await this.destroyClient(login.client);
  }

  async disconnect(accountName: string): Promise<void> {
    const pooled = this.pool.get(accountName);
    if (pooled) await this.release(accountName, pooled);
  }

  /** Closes every connection (module destroy). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const pooled = [...this.pool.entries()];
    this.pool.clear();
    const logins = [...this.logins.values()];
    this.logins.clear();
    await Promise.all([...pooled.map(([, p]) => this.destroyClient(p.client)), ...logins.map((l) => this.destroyClient(l.client))]);
  }

  /** Number of pooled connections (for tests and the runtime status). */
  get openConnections(): number {
    return this.pool.size;
  }
}
