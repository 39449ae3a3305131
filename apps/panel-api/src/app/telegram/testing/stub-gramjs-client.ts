import { createHash, randomBytes } from 'node:crypto';
import { Api, errors, helpers, password as gramPassword } from 'telegram';
import type { TelegramClient } from 'telegram';
import { deleteMessages as gramJsDeleteMessages } from 'telegram/client/messages';
import { EditedMessage } from 'telegram/events/EditedMessage';
import { NewMessage } from 'telegram/events';
import type { GramJsClient } from '../gramjs-telegram-gateway';
import { encodeSessionString } from '../session-string';

/** Telegram's 2048-bit SRP prime (the one GramJS accepts), with g = 3. */
const SRP_PRIME = Buffer.from(
  'c71caeb9c6b1c9048e6c522f70f13f73980d40238e3e21c14934d037563d930f48198a0aa7c14058229493d22530f4dbfa336f6e0ac925139543aed44cce7c3720fd51f69458705ac68cd4fe6b6b13abdc9746512969328454f18faf8c595f642477fe96bb2a941d5bcd1d4ac8cc49880708fa9b378e3c4f3a9060bee67cf9a4a4a695811051907e162753b56b0f6b410dba74d8a84b2a14b3144e0ef1284754fd17ed950d5965b4b9dd46582db1178d169c6bc465b0d6ff9ca3928fef5b9ae4e418fc15e83ebea0f87fa9ff5eed70050ded2849f47bf959d956850ce929851f0d8115f635b105ee2e4e15d04b2454bf6f4fadf034b10403119cd8e3b92fcc5b',
  'hex',
);
const SRP_G = 3n;

function toBigInt(bytes: Buffer): bigint {
  return BigInt(`0x${bytes.toString('hex') || '0'}`);
}

function to256(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(512, '0'), 'hex');
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function sha256(...parts: Buffer[]): Buffer {
  return createHash('sha256').update(Buffer.concat(parts)).digest();
}

/**
 * The server half of Telegram's SRP 2FA check (core.telegram.org/api/srp): it issues srp_B and
 * verifies the client's A and M1, so a wrong password is refused as Telegram refuses it.
 */
class SrpServer {
  readonly algo = new Api.PasswordKdfAlgoSHA256SHA256PBKDF2HMACSHA512iter100000SHA256ModPow({
    salt1: randomBytes(16),
    salt2: randomBytes(16),
    g: Number(SRP_G),
    p: SRP_PRIME,
  });
  private readonly b = toBigInt(randomBytes(256));
  readonly srpId = helpers.returnBigInt(toBigInt(randomBytes(7)).toString());
  private verifier?: bigint;
  srpB?: Buffer;

  async setPassword(password: string): Promise<void> {
    const p = toBigInt(SRP_PRIME);
    this.verifier = toBigInt(Buffer.from(await gramPassword.computeDigest(this.algo, password)));
    const k = toBigInt(sha256(SRP_PRIME, to256(SRP_G)));
    this.srpB = to256((k * this.verifier + modPow(SRP_G, this.b, p)) % p);
  }

  verify(check: Api.TypeInputCheckPasswordSRP): boolean {
    if (!(check instanceof Api.InputCheckPasswordSRP) || !this.verifier || !this.srpB) return false;
    if (check.srpId.toString() !== this.srpId.toString()) return false;
    const p = toBigInt(SRP_PRIME);
    const a = to256(toBigInt(check.A));
    const u = toBigInt(sha256(a, this.srpB));
    const S = modPow((toBigInt(a) * modPow(this.verifier, u, p)) % p, this.b, p);
    const pgXor = Buffer.from(sha256(SRP_PRIME).map((byte, i) => byte ^ sha256(to256(SRP_G))[i]));
    const m1 = sha256(pgXor, sha256(this.algo.salt1), sha256(this.algo.salt2), a, this.srpB, sha256(to256(S)));
    return m1.equals(check.M1);
  }
}

/** What the stub's bot answers: the same scripted bot the simulator gets in the contract suite. */
export interface StubBotReply {
  text: string;
  inlineButtons?: string[];
  /** Inline buttons that open a link. */
  urlButtons?: Array<{ text: string; url: string }>;
  replyKeyboard?: string[];
  photo?: Buffer;
}

export interface StubTelegramOptions {
  me: { id: number; firstName: string; username: string; phone: string };
  bot: { id: number; username: string; onMessage: (text: string) => StubBotReply | undefined; onCallback: (button: string) => string };
  /** Phone login: the code Telegram accepts, the 2FA hint when the account has a password. */
  loginCode: string;
  passwordHint?: string;
  /** How long a QR login token lives (Telegram: 30 s); negative for one already expired. */
  qrLifetimeSeconds?: number;
}

type Handler = (event: unknown) => void;

/**
 * A stand-in for GramJS's TelegramClient that answers with the same Api objects Telegram sends
 * (messages, updates, login tokens, RPC errors), so the adapter is tested on GramJS's types and
 * not on our own functions. One stub is one connection: the gateway makes one per account or login.
 */
export class StubGramJsClient {
  readonly requests: Api.AnyRequest[] = [];
  /** The arguments of every sendMessage, as the adapter passed them. */
  readonly sentMessages: Array<{ ref: number | string; message: string; replyTo?: number; topMsgId?: number }> = [];
  /** What StringSession.save() gives once the client is authorized: a session string of its own. */
  readonly session = { save: (): string => this.sessionString };
  private readonly sessionString = encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey: randomBytes(256) });
  connected = false;
  destroyed = false;
  /** The data center the client is connected to (changed by _switchDC). */
  dcId = 2;
  private readonly handlers: Array<{ callback: Handler; builder?: unknown }> = [];

  constructor(
    private readonly world: StubTelegramWorld,
  ) {}

  async connect(): Promise<boolean> {
    this.connected = true;
    return true;
  }

  async destroy(): Promise<void> {
    this.connected = false;
    this.destroyed = true;
    this.world.clients.delete(this);
  }

  async getMe(): Promise<Api.User> {
    const me = this.world.options.me;
    return new Api.User({ id: helpers.returnBigInt(me.id), firstName: me.firstName, username: me.username, phone: me.phone, self: true });
  }

  async getInputEntity(ref: number | string): Promise<Api.TypeInputPeer> {
    const id = this.world.resolve(ref);
    return new Api.InputPeerUser({ userId: helpers.returnBigInt(id), accessHash: helpers.returnBigInt(1) });
  }

  async getDialogs(): Promise<unknown[]> {
    return [];
  }

  async getMessages(ref: number | string, params: { ids?: number[]; limit?: number; minId?: number }): Promise<Api.Message[]> {
    const list = this.world.chat(this.world.resolve(ref));
    const newestFirst = [...list].reverse();
    if (params.ids) return newestFirst.filter((m) => params.ids?.includes(m.id));
    return newestFirst.filter((m) => m.id > (params.minId ?? 0)).slice(0, params.limit ?? 100);
  }

  async sendMessage(ref: number | string, params: { message: string; replyTo?: number; topMsgId?: number }): Promise<Api.Message> {
    this.sentMessages.push({ ref, ...params });
    const chatId = this.world.resolve(ref);
    const sent = this.world.append(chatId, { out: true, message: params.message });
    this.world.botAnswers(chatId, params.message);
    return sent;
  }

  /** GramJS's own implementation, so the requests it builds from the adapter's arguments reach invoke. */
  async deleteMessages(entity: string | number, messageIds: number[], options: { revoke?: boolean }): Promise<unknown> {
    return gramJsDeleteMessages(this as unknown as TelegramClient, entity, messageIds, { revoke: options.revoke ?? false });
  }

  async downloadMedia(message: Api.Message): Promise<Buffer | undefined> {
    return this.world.photos.get(message.id);
  }

  async sendCode(_credentials: unknown, phoneNumber: string): Promise<{ phoneCodeHash: string; isCodeViaApp: boolean }> {
    if (phoneNumber.replace(/\D/g, '').length < 5) throw new errors.RPCError('PHONE_NUMBER_INVALID', new Api.auth.SendCode({ phoneNumber, apiId: 1, apiHash: '', settings: new Api.CodeSettings({}) }), 400);
    return { phoneCodeHash: 'code-hash', isCodeViaApp: true };
  }

  async _switchDC(dcId: number): Promise<void> {
    this.dcId = dcId;
  }

  addEventHandler(callback: Handler, builder?: unknown): void {
    this.handlers.push({ callback, builder });
  }

  removeEventHandler(callback: Handler, builder?: unknown): void {
    const index = this.handlers.findIndex((h) => h.callback === callback && h.builder === builder);
    if (index >= 0) this.handlers.splice(index, 1);
  }

  get handlerCount(): number {
    return this.handlers.length;
  }

  /** An update from Telegram: message events go to NewMessage/EditedMessage handlers, raw updates to the rest. */
  emit(update: Api.TypeUpdate): void {
    for (const { callback, builder } of [...this.handlers]) {
      if (builder instanceof EditedMessage) {
        if (update instanceof Api.UpdateEditMessage) callback({ message: update.message });
      } else if (builder instanceof NewMessage) {
        if (update instanceof Api.UpdateNewMessage) callback({ message: update.message });
      } else callback(update);
    }
  }

  async invoke(request: Api.AnyRequest): Promise<unknown> {
    this.requests.push(request);
    return this.world.answer(this, request);
  }
}

export class StubTelegramWorld {
  readonly clients = new Set<StubGramJsClient>();
  readonly photos = new Map<number, Buffer>();
  private readonly chats = new Map<number, Api.Message[]>();
  private nextId = 1;
  /** QR logins: tokens issued, and whether the phone accepted them (then the login moves to DC 4). */
  private readonly qrTokens = new Map<string, { accepted: boolean }>();
  private readonly srp = new SrpServer();
  readonly authorizations: Api.Authorization[];

  constructor(readonly options: StubTelegramOptions) {
    const device = (hash: string, current: boolean, deviceModel: string): Api.Authorization =>
      new Api.Authorization({
        hash: helpers.returnBigInt(hash),
        current,
        officialApp: !current,
        deviceModel,
        platform: 'Linux',
        systemVersion: '6.1',
        apiId: 1,
        appName: 'signpulse',
        appVersion: '1.0',
        dateCreated: 1_700_000_000,
        dateActive: 1_700_000_500,
        ip: '203.0.113.7',
        country: 'Netherlands',
        region: 'North Holland',
      });
    this.authorizations = [device('0', true, 'signpulse panel'), device('-8070450532247928832', false, 'Pixel 8')];
  }

  /** Sets up the 2FA password (SRP verifier); call before a login when passwordHint is set. */
  async setPassword(password: string): Promise<void> {
    await this.srp.setPassword(password);
  }

  newClient(): GramJsClient {
    const client = new StubGramJsClient(this);
    this.clients.add(client);
    return client as unknown as GramJsClient;
  }

  resolve(ref: number | string): number {
    const text = String(ref);
    if (text === `@${this.options.bot.username}` || text === String(this.options.bot.id)) return this.options.bot.id;
    if (text === '777000') return 777000;
    throw new errors.RPCError('USERNAME_NOT_OCCUPIED', new Api.contacts.ResolveUsername({ username: text }), 400);
  }

  chat(chatId: number): Api.Message[] {
    const list = this.chats.get(chatId) ?? [];
    this.chats.set(chatId, list);
    return list;
  }

  append(chatId: number, input: { out: boolean; message: string; media?: Api.TypeMessageMedia; replyMarkup?: Api.TypeReplyMarkup }): Api.Message {
    const message = new Api.Message({
      id: this.nextId++,
      peerId: new Api.PeerUser({ userId: helpers.returnBigInt(chatId) }),
      out: input.out,
      date: Math.floor(Date.now() / 1000),
      message: input.message,
      media: input.media,
      replyMarkup: input.replyMarkup,
    });
    this.chat(chatId).push(message);
    if (!input.out) for (const client of this.clients) client.emit(new Api.UpdateNewMessage({ message, pts: 0, ptsCount: 0 }));
    return message;
  }

  /** Someone writes to the account (for subscribe and waitForReply). */
  pushFromBot(text: string): Api.Message {
    return this.append(this.options.bot.id, { out: false, message: text });
  }

  botAnswers(chatId: number, text: string): void {
    if (chatId !== this.options.bot.id) return;
    const reply = this.options.bot.onMessage(text);
    if (!reply) return;
    let replyMarkup: Api.TypeReplyMarkup | undefined;
    if (reply.inlineButtons || reply.urlButtons) {
      const buttons: Api.TypeKeyboardButton[] = [
        ...(reply.inlineButtons ?? []).map((label) => new Api.KeyboardButtonCallback({ text: label, data: Buffer.from(label) })),
        ...(reply.urlButtons ?? []).map((button) => new Api.KeyboardButtonUrl(button)),
      ];
      replyMarkup = new Api.ReplyInlineMarkup({ rows: [new Api.KeyboardButtonRow({ buttons })] });
    } else if (reply.replyKeyboard) {
      replyMarkup = new Api.ReplyKeyboardMarkup({ rows: [new Api.KeyboardButtonRow({ buttons: reply.replyKeyboard.map((label) => new Api.KeyboardButton({ text: label })) })] });
    }
    const media = reply.photo
      ? new Api.MessageMediaPhoto({ photo: new Api.Photo({ id: helpers.returnBigInt(1), accessHash: helpers.returnBigInt(1), fileReference: Buffer.alloc(0), date: 0, sizes: [], dcId: 2 }) })
      : undefined;
    const message = this.append(chatId, { out: false, message: reply.text, replyMarkup, media });
    if (reply.photo) this.photos.set(message.id, reply.photo);
  }

  /** The phone app scans the QR code and accepts it; Telegram then pushes updateLoginToken. */
  scanQr(qrUrl: string): void {
    const token = qrUrl.replace(/^tg:\/\/login\?token=/, '');
    const entry = this.qrTokens.get(token);
    if (!entry) throw new Error(`no QR token ${token}`);
    entry.accepted = true;
    for (const client of this.clients) client.emit(new Api.UpdateLoginToken());
  }

  private authorization(): Api.auth.Authorization {
    const me = this.options.me;
    return new Api.auth.Authorization({ user: new Api.User({ id: helpers.returnBigInt(me.id), firstName: me.firstName, username: me.username, phone: me.phone, self: true }) });
  }

  answer(client: StubGramJsClient, request: Api.AnyRequest): unknown {
    if (request instanceof Api.account.UpdateStatus) return true;
    if (request instanceof Api.messages.GetHistory) {
      const list = [...this.chat(777000)].reverse().slice(0, request.limit);
      return new Api.messages.Messages({ messages: list, chats: [], users: [] });
    }
    if (request instanceof Api.messages.SendMedia) {
      const media = request.media as Api.InputMediaDice;
      const chatId = Number((request.peer as Api.InputPeerUser).userId);
      const message = this.append(chatId, { out: true, message: '', media: new Api.MessageMediaDice({ value: 1 + Math.floor(Math.random() * 6), emoticon: media.emoticon }) });
      this.botAnswers(chatId, media.emoticon);
      return new Api.Updates({ updates: [new Api.UpdateMessageID({ id: message.id, randomId: request.randomId }), new Api.UpdateNewMessage({ message, pts: 0, ptsCount: 0 })], users: [], chats: [], date: 0, seq: 0 });
    }
    if (request instanceof Api.messages.GetBotCallbackAnswer) {
      return new Api.messages.BotCallbackAnswer({ message: this.options.bot.onCallback(request.data?.toString() ?? ''), cacheTime: 0 });
    }
    if (request instanceof Api.auth.SignIn) {
      if (request.phoneCode !== this.options.loginCode) throw new errors.RPCError('PHONE_CODE_INVALID', request, 400);
      if (this.options.passwordHint !== undefined) {
        throw new errors.RPCError('SESSION_PASSWORD_NEEDED', request, 401);
      }
      return this.authorization();
    }
    if (request instanceof Api.account.GetAuthorizations) {
      return new Api.account.Authorizations({ authorizationTtlDays: 180, authorizations: [...this.authorizations] });
    }
    if (request instanceof Api.account.ResetAuthorization) {
      const index = this.authorizations.findIndex((a) => !a.current && a.hash.toString() === request.hash.toString());
      if (index < 0) throw new errors.RPCError('HASH_INVALID', request, 400);
      this.authorizations.splice(index, 1);
      return true;
    }
    if (request instanceof Api.messages.DeleteMessages) {
      for (const [chatId, list] of this.chats) this.chats.set(chatId, list.filter((m) => !request.id.includes(m.id)));
      return new Api.messages.AffectedMessages({ pts: 0, ptsCount: request.id.length });
    }
    if (request instanceof Api.auth.CheckPassword) {
      if (!this.srp.verify(request.password)) throw new errors.RPCError('PASSWORD_HASH_INVALID', request, 400);
      return this.authorization();
    }
    if (request instanceof Api.account.GetPassword) {
      return new Api.account.Password({
        hasPassword: this.options.passwordHint !== undefined,
        hint: this.options.passwordHint,
        currentAlgo: this.options.passwordHint !== undefined ? this.srp.algo : undefined,
        srp_B: this.srp.srpB,
        srpId: this.srp.srpId,
        newAlgo: new Api.PasswordKdfAlgoUnknown(),
        newSecureAlgo: new Api.SecurePasswordKdfAlgoUnknown(),
        secureRandom: Buffer.alloc(0),
      });
    }
    if (request instanceof Api.auth.ExportLoginToken) {
      const accepted = [...this.qrTokens.entries()].find(([, entry]) => entry.accepted);
      // The account lives on DC 4: an accepted token first answers "migrate", as Telegram does.
      if (accepted) return new Api.auth.LoginTokenMigrateTo({ dcId: 4, token: Buffer.from(accepted[0], 'base64url') });
      const token = Buffer.from(`qr-${this.nextId++}`);
      this.qrTokens.set(token.toString('base64url'), { accepted: false });
      return new Api.auth.LoginToken({ token, expires: Math.floor(Date.now() / 1000) + (this.options.qrLifetimeSeconds ?? 30) });
    }
    if (request instanceof Api.auth.ImportLoginToken) {
      if (client.dcId !== 4) throw new errors.RPCError('AUTH_TOKEN_INVALID', request, 400);
      if (this.options.passwordHint !== undefined) {
        throw new errors.RPCError('SESSION_PASSWORD_NEEDED', request, 401);
      }
      return new Api.auth.LoginTokenSuccess({ authorization: this.authorization() });
    }
    throw new Error(`The stub has no answer for ${request.className}`);
  }
}
