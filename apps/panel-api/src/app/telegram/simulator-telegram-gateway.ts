import { Socket, connect } from 'node:net';
import { TelegramError, TelegramErrorKind } from './telegram-error';
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
  TelegramIncomingMessage,
  TelegramMessage,
  TelegramSession,
  TelegramUser,
  WaitForReplyOptions,
} from './telegram-gateway';

/**
 * TEST ONLY (APP_TELEGRAM_GATEWAY=simulator): the TelegramGateway of several panel-api processes that
 * share one Telegram simulator process (apps/panel-api/test/telegram-simulator-server.ts), the
 * multi-process proof of docs/scaling.md. It is never chosen unless configured, and only to a
 * loopback address (the configuration refuses any other).
 *
 * It behaves towards the simulator as the GramJS adapter does towards Telegram: one connection per
 * account, opened at the first call with the account's session and kept (pinged) until `disconnect`,
 * so the simulator sees which process holds which session and refuses a second live connection of
 * one session (AUTH_KEY_DUPLICATED, as Telegram does). A connection the simulator drops is opened
 * again for its subscriptions after a second, as GramJS reconnects. The wire is newline-delimited
 * JSON over TCP.
 */

/** How often a connection pings (the simulator drops a connection silent for longer than its own limit). */
const PING_MS = 250;
/** GramJS' default retryDelay: how long a dropped connection waits before it is opened again. */
const RECONNECT_MS = 1000;
const DEFAULT_TIMEOUT_MS = 30_000;

interface WireError {
  kind: TelegramErrorKind;
  message: string;
  details?: { seconds?: number; rpcMessage?: string };
}

type ServerFrame =
  | { t: 'ready' }
  | { t: 'refused'; error: WireError }
  | { t: 'result'; id: number; value: unknown }
  | { t: 'error'; id: number; error: WireError }
  | { t: 'message'; sub: number; message: TelegramIncomingMessage };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

function errorOf(wire: WireError): TelegramError {
  return new TelegramError(wire.kind, wire.message, wire.details ?? {});
}

/** Parses tcp://host:port (the configuration has checked it is loopback). */
export function simulatorAddress(url: string): { host: string; port: number } {
  const match = /^tcp:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})$/.exec(url);
  if (!match) throw new Error('APP_TELEGRAM_SIMULATOR_URL must be tcp://127.0.0.1:<port>');
  return {
    host: match[1] === '[::1]' ? '::1' : match[1],
    port: Number(match[2]),
  };
}

/** One connection to the simulator: with an account's session, or without one (logins). */
class SimulatorConnection {
  private readonly socket: Socket;
  private readonly pending = new Map<number, Pending>();
  private readonly subscriptions = new Map<number, MessageListener>();
  private nextId = 1;
  private buffer = '';
  private pinger?: NodeJS.Timeout;
  readonly ready: Promise<void>;
  closed = false;
  /** True once `close` was called here (not dropped by the simulator). */
  closedByUs = false;
  onDropped?: () => void;

  constructor(
    address: { host: string; port: number },
    readonly accountName: string,
    readonly sessionString: string | null,
  ) {
    this.socket = connect(address);
    this.socket.setNoDelay(true);
    let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
    this.ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // A connection nobody awaits (closed while connecting) must not become an unhandled rejection.
    this.ready.catch(() => undefined);
    this.pending.set(0, {
      resolve: () => settle?.resolve(),
      reject: (error) => settle?.reject(error),
    });
    this.socket.on('connect', () => {
      this.send({ t: 'hello', account: accountName, session: sessionString, pid: process.pid });
      this.pinger = setInterval(() => this.send({ t: 'ping' }), PING_MS);
      this.pinger.unref();
    });
    this.socket.on('data', (chunk) => this.receive(chunk.toString('utf8')));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => this.ended());
  }

  private send(frame: Record<string, unknown>): void {
    if (!this.closed) this.socket.write(`${JSON.stringify(frame)}\n`);
  }

  private receive(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line) this.handle(JSON.parse(line) as ServerFrame);
      newline = this.buffer.indexOf('\n');
    }
  }

  private handle(frame: ServerFrame): void {
    if (frame.t === 'ready' || frame.t === 'refused') {
      const hello = this.pending.get(0);
      this.pending.delete(0);
      if (frame.t === 'ready') hello?.resolve(undefined);
      else {
        hello?.reject(errorOf(frame.error));
        this.close();
      }
    } else if (frame.t === 'message') {
      const listener = this.subscriptions.get(frame.sub);
      if (listener) setImmediate(() => listener(frame.message));
    } else {
      const call = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (frame.t === 'result') call?.resolve(frame.value);
      else call?.reject(errorOf(frame.error));
    }
  }

  private ended(): void {
    const wasOpen = !this.closed;
    this.closed = true;
    if (this.pinger) clearInterval(this.pinger);
    const lost = new TelegramError('connection_error', 'The connection to Telegram dropped');
    for (const call of this.pending.values()) call.reject(lost);
    this.pending.clear();
    if (wasOpen && !this.closedByUs) this.onDropped?.();
  }

  /** Listeners of this connection's subscriptions (to subscribe them again after a drop). */
  listeners(): MessageListener[] {
    return [...this.subscriptions.values()];
  }

  async call<T>(method: string, args: unknown[], options: CallOptions | undefined): Promise<T> {
    const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = options?.signal;
    if (signal?.aborted) throw TelegramError.aborted();
    const id = this.nextId++;
    const wireOptions: Record<string, unknown> = {
      ...(options ?? {}),
      timeoutMs,
    };
    delete wireOptions['signal'];
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<T>((resolve, reject) => {
        this.pending.set(id, {
          resolve: (value) => resolve(value as T),
          reject,
        });
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(TelegramError.timeout(timeoutMs));
        }, timeoutMs);
        onAbort = () => {
          this.pending.delete(id);
          reject(TelegramError.aborted());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        if (this.closed) {
          this.pending.delete(id);
          reject(new TelegramError('connection_error', 'The connection to Telegram is closed'));
          return;
        }
        this.send({ t: 'call', id, method, args, options: wireOptions });
      });
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  async subscribe(listener: MessageListener, options?: CallOptions): Promise<number> {
    const sub = await this.call<number>('subscribe', [], options);
    this.subscriptions.set(sub, listener);
    return sub;
  }

  async unsubscribe(sub: number): Promise<void> {
    if (!this.subscriptions.delete(sub) || this.closed) return;
    await this.call('unsubscribe', [sub], { timeoutMs: 5_000 }).catch(() => undefined);
  }

  async unsubscribeListener(listener: MessageListener): Promise<void> {
    for (const [sub, candidate] of [...this.subscriptions]) if (candidate === listener) await this.unsubscribe(sub);
  }

  close(): void {
    this.closedByUs = true;
    if (this.pinger) clearInterval(this.pinger);
    this.socket.end();
    this.socket.destroy();
    this.ended();
  }
}

export class SimulatorTelegramGateway implements TelegramGateway {
  private readonly address: { host: string; port: number };
  private readonly connections = new Map<string, SimulatorConnection>();
  /** Pending logins: which login connection serves them. */
  private readonly logins = new Map<string, SimulatorConnection>();

  constructor(url: string) {
    this.address = simulatorAddress(url);
  }

  /** The account's live connection, opened (and greeted with its session) when there is none. */
  private async connection(session: TelegramSession): Promise<SimulatorConnection> {
    let current = this.connections.get(session.accountName);
    let carried: MessageListener[] = [];
    if (current && (current.closed || current.sessionString !== session.sessionString)) {
      if (current.closed && !current.closedByUs && current.sessionString === session.sessionString) carried = current.listeners();
      if (!current.closed) current.close();
      this.connections.delete(session.accountName);
      current = undefined;
    }
    const opened = current ?? this.open(session.accountName, session.sessionString, carried);
    try {
      await opened.ready;
    } catch (error) {
      if (this.connections.get(session.accountName) === opened) this.connections.delete(session.accountName);
      throw error;
    }
    return opened;
  }

  /** Opens the account's connection; `carried` are the subscriptions of a dropped one, subscribed again. */
  private open(accountName: string, sessionString: string, carried: MessageListener[]): SimulatorConnection {
    const opened = new SimulatorConnection(this.address, accountName, sessionString);
    this.connections.set(accountName, opened);
    opened.onDropped = () => {
      // As GramJS reconnects: the subscriptions of a dropped connection come back on a new one.
      const listeners = opened.listeners();
      if (!listeners.length) return;
      const timer = setTimeout(() => {
        if (this.connections.get(accountName) === opened) this.open(accountName, sessionString, listeners);
      }, RECONNECT_MS);
      timer.unref();
    };
    if (carried.length) void opened.ready.then(() => Promise.all(carried.map((listener) => opened.subscribe(listener)))).catch(() => undefined);
    return opened;
  }

  private async onSession<T>(session: TelegramSession, method: string, args: unknown[], options?: CallOptions): Promise<T> {
    if (options?.signal?.aborted) throw TelegramError.aborted();
    return (await this.connection(session)).call<T>(method, args, options);
  }

  /** A login runs on a connection without a session, kept until the login ends. */
  private async onLogin<T>(method: string, loginId: string | undefined, target: LoginTarget | undefined, args: unknown[], options?: CallOptions): Promise<T> {
    let connection = loginId ? this.logins.get(loginId) : undefined;
    if (!connection) {
      if (loginId) throw new TelegramError('login_not_found', 'No pending login with this id');
      connection = new SimulatorConnection(this.address, target?.accountName ?? '', null);
    }
    await connection.ready;
    try {
      const result = await connection.call<T>(method, args, options);
      const id = loginId ?? (result as { loginId?: string }).loginId;
      if (id && !loginId) this.logins.set(id, connection);
      return result;
    } catch (error) {
      if (!loginId) connection.close();
      throw error;
    }
  }

  getMe(session: TelegramSession, options?: CallOptions): Promise<TelegramUser> {
    return this.onSession(session, 'getMe', [], options);
  }

  wakeUp(session: TelegramSession, options?: CallOptions): Promise<void> {
    return this.onSession(session, 'wakeUp', [], options).then(() => undefined);
  }

  exportSession(session: TelegramSession, options?: CallOptions): Promise<string> {
    return this.onSession(session, 'exportSession', [], options);
  }

  getAuthorizations(session: TelegramSession, options?: CallOptions): Promise<TelegramAuthorization[]> {
    return this.onSession(session, 'getAuthorizations', [], options);
  }

  resetAuthorization(session: TelegramSession, hash: string, options?: CallOptions): Promise<void> {
    return this.onSession(session, 'resetAuthorization', [hash], options).then(() => undefined);
  }

  getOfficialMessages(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramMessage[]> {
    return this.onSession(session, 'getOfficialMessages', [limit], options);
  }
  getDialogs(session: TelegramSession, limit: number, options?: CallOptions): Promise<TelegramDialog[]> {
    return this.onSession(session, 'getDialogs', [limit], options);
  }


  sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.onSession(session, 'sendMessage', [chat, text], options);
  }

  sendDice(session: TelegramSession, chat: TelegramChatRef, emoji: string, options?: SendOptions): Promise<TelegramMessage> {
    return this.onSession(session, 'sendDice', [chat, emoji], options);
  }

  deleteMessages(session: TelegramSession, chat: TelegramChatRef, messageIds: readonly number[], options?: CallOptions): Promise<void> {
    return this.onSession(session, 'deleteMessages', [chat, [...messageIds]], options).then(() => undefined);
  }

  getMessages(session: TelegramSession, chat: TelegramChatRef, options?: HistoryOptions): Promise<TelegramMessage[]> {
    return this.onSession(session, 'getMessages', [chat], options);
  }

  clickButton(session: TelegramSession, chat: TelegramChatRef, messageId: number, buttonText: string, options?: CallOptions): Promise<ButtonClickResult> {
    return this.onSession(session, 'clickButton', [chat, messageId, buttonText], options);
  }

  waitForReply(session: TelegramSession, chat: TelegramChatRef, afterMessageId: number, options?: WaitForReplyOptions): Promise<TelegramMessage | null> {
    // The simulator answers null at the call's own timeout; the wire deadline leaves it room to say so.
    const timeoutMs = options?.timeoutMs ?? 10_000;
    return this.onSession(session, 'waitForReply', [chat, afterMessageId, { ...options, signal: undefined, timeoutMs }], {
      ...options,
      timeoutMs: timeoutMs + 5_000,
    });
  }

  async downloadMedia(session: TelegramSession, chat: TelegramChatRef, messageId: number, options?: CallOptions): Promise<DownloadedMedia | null> {
    const media = await this.onSession<{
      data: string;
      mimeType: string;
    } | null>(session, 'downloadMedia', [chat, messageId], options);
    return media ? { data: Buffer.from(media.data, 'base64'), mimeType: media.mimeType } : null;
  }

  async subscribe(session: TelegramSession, listener: MessageListener, options?: CallOptions): Promise<MessageSubscription> {
    const connection = await this.connection(session);
    const sub = await connection.subscribe(listener, options);
    return {
      unsubscribe: async () => {
        await connection.unsubscribe(sub);
        // After a reconnect the subscription lives on the account's current connection.
        const current = this.connections.get(session.accountName);
        if (current && current !== connection) await current.unsubscribeListener(listener);
      },
    };
  }

  startPhoneLogin(target: LoginTarget, phoneNumber: string, options?: CallOptions): Promise<PhoneLoginStart> {
    return this.onLogin('startPhoneLogin', undefined, target, [target, phoneNumber], options);
  }

  async completePhoneLogin(loginId: string, code: string, password?: string, options?: CallOptions): Promise<PhoneLoginStep> {
    const step = await this.onLogin<PhoneLoginStep>('completePhoneLogin', loginId, undefined, [loginId, code, password ?? null], options);
    if (step.status === 'success') this.endLogin(loginId);
    return step;
  }

  startQrLogin(target: LoginTarget, options?: CallOptions): Promise<QrLoginStatus> {
    return this.onLogin('startQrLogin', undefined, target, [target], options);
  }

  async getQrLogin(loginId: string, options?: CallOptions): Promise<QrLoginStatus> {
    const status = await this.onLogin<QrLoginStatus>('getQrLogin', loginId, undefined, [loginId], options);
    if (['success', 'expired', 'failed'].includes(status.state)) this.endLogin(loginId);
    return status;
  }

  async submitQrPassword(loginId: string, password: string, options?: CallOptions): Promise<QrLoginStatus> {
    const status = await this.onLogin<QrLoginStatus>('submitQrPassword', loginId, undefined, [loginId, password], options);
    if (status.state === 'success') this.endLogin(loginId);
    return status;
  }

  async cancelLogin(loginId: string): Promise<void> {
    const connection = this.logins.get(loginId);
    if (!connection) return;
    await connection.call('cancelLogin', [loginId], { timeoutMs: 5_000 }).catch(() => undefined);
    this.endLogin(loginId);
  }

  private endLogin(loginId: string): void {
    this.logins.get(loginId)?.close();
    this.logins.delete(loginId);
  }

  async disconnect(accountName: string): Promise<void> {
    const connection = this.connections.get(accountName);
    this.connections.delete(accountName);
    connection?.close();
  }

  async close(): Promise<void> {
    for (const accountName of [...this.connections.keys()]) await this.disconnect(accountName);
    for (const loginId of [...this.logins.keys()]) this.endLogin(loginId);
  }
}
