import { createServer as createHttpServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { MessageSubscription, TelegramSession } from '../src/app/telegram/telegram-gateway';
import { TelegramSimulator } from './telegram-simulator';

/**
 * The in-process TelegramSimulator served to other processes: the Telegram that several panel-api
 * replicas (APP_TELEGRAM_GATEWAY=simulator, src/app/telegram/simulator-telegram-gateway.ts) reach at
 * once in the multi-process proof (deploy/test/panel-cluster.e2e-spec.ts, tools/bench/panel-cluster.mjs).
 *
 * Like Telegram, it refuses a second live connection of one session (AUTH_KEY_DUPLICATED) and records
 * it as an overlap: two processes connected with one session at the same moment. A connection is live
 * while it is open and not silent: the client pings every 250 ms, and a connection that sent nothing
 * for `staleMs` (a paused process) is dropped, as Telegram drops a peer that stopped pinging.
 *
 * A small HTTP control API (see `control`) lets a test script set up users, a check-in bot and groups,
 * push group messages and read what happened.
 */

interface Live {
  socket: Socket;
  account: string;
  pid: number | null;
  session: string | null;
  openedAt: number;
  lastSeen: number;
  /** The last methods called on this connection (for an overlap's report). */
  methods: string[];
  subscriptions: Map<number, MessageSubscription>;
}

export interface SimOverlap {
  account: string;
  at: number;
  holder_pid: number | null;
  refused_pid: number | null;
  holder_opened_at: number;
  holder_last_seen: number;
  holder_methods: string[];
}

export interface SimCheckin {
  user_id: string;
  text: string;
  at: number;
}

const SESSION_METHODS = new Set([
  'getMe',
  'wakeUp',
  'exportSession',
  'getAuthorizations',
  'resetAuthorization',
  'getOfficialMessages',
  'getDialogs',
  'sendMessage',
  'sendDice',
  'deleteMessages',
  'getMessages',
  'clickButton',
  'waitForReply',
  'downloadMedia',
]);
const LOGIN_METHODS = new Set(['startPhoneLogin', 'completePhoneLogin', 'startQrLogin', 'getQrLogin', 'submitQrPassword', 'cancelLogin']);

function wireError(error: unknown): { kind: string; message: string; details?: unknown } {
  if (error instanceof TelegramError) return { kind: error.kind, message: error.message, details: error.details };
  return { kind: 'rpc_error', message: error instanceof Error ? error.message : String(error) };
}

export class TelegramSimulatorServer {
  readonly simulator = new TelegramSimulator();
  readonly overlaps: SimOverlap[] = [];
  readonly checkins: SimCheckin[] = [];
  /** Connections dropped for silence (a paused process). */
  staleDrops = 0;
  connectionsAccepted = 0;
  private readonly live = new Set<Live>();
  private nextSub = 1;
  private tcp?: Server;
  private http?: HttpServer;
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly options: { staleMs: number }) {}

  /** Starts the gateway (TCP) and control (HTTP) listeners on loopback; port 0 picks free ones. */
  async listen(gatewayPort = 0, controlPort = 0): Promise<{ gatewayUrl: string; controlUrl: string }> {
    this.tcp = createServer((socket) => this.accept(socket));
    this.http = createHttpServer((request, response) => void this.control(request, response));
    await new Promise<void>((resolve) => this.tcp?.listen(gatewayPort, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => this.http?.listen(controlPort, '127.0.0.1', resolve));
    this.sweeper = setInterval(() => this.sweep(), 100);
    return {
      gatewayUrl: `tcp://127.0.0.1:${(this.tcp.address() as AddressInfo).port}`,
      controlUrl: `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`,
    };
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const connection of this.live) connection.socket.destroy();
    this.http?.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => (this.tcp ? this.tcp.close(resolve) : resolve(undefined))),
      new Promise((resolve) => (this.http ? this.http.close(resolve) : resolve(undefined))),
    ]);
  }

  /** Live connections per account (for a report). */
  liveSessions(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const connection of this.live) if (connection.session) counts[connection.account] = (counts[connection.account] ?? 0) + 1;
    return counts;
  }

  private sweep(): void {
    const now = Date.now();
    for (const connection of this.live) {
      if (connection.session && now - connection.lastSeen > this.options.staleMs) {
        this.staleDrops += 1;
        this.drop(connection);
      }
    }
  }

  private drop(connection: Live): void {
    this.live.delete(connection);
    for (const subscription of connection.subscriptions.values()) void subscription.unsubscribe();
    connection.subscriptions.clear();
    connection.socket.destroy();
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    let connection: Live | undefined;
    let buffer = '';
    const send = (frame: unknown): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
    };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (connection && this.live.has(connection)) this.drop(connection);
    });
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (!line) continue;
        const frame = JSON.parse(line) as { t: string; id?: number; method?: string; args?: unknown[]; options?: Record<string, unknown>; account?: string; session?: string | null; pid?: number };
        if (connection) connection.lastSeen = Date.now();
        if (frame.t === 'hello') {
          connection = this.hello(socket, frame.account ?? '', frame.session ?? null, frame.pid ?? null, send);
        } else if (frame.t === 'call' && connection && frame.id !== undefined) {
          void this.call(connection, frame.id, frame.method ?? '', frame.args ?? [], frame.options ?? {}, send);
        }
      }
    });
  }

  private hello(socket: Socket, account: string, session: string | null, pid: number | null, send: (frame: unknown) => void): Live | undefined {
    if (session) {
      const holder = [...this.live].find((other) => other.session === session);
      if (holder && Date.now() - holder.lastSeen <= this.options.staleMs) {
        this.overlaps.push({
          account,
          at: Date.now(),
          holder_pid: holder.pid,
          refused_pid: pid,
          holder_opened_at: holder.openedAt,
          holder_last_seen: holder.lastSeen,
          holder_methods: [...holder.methods],
        });
        send({ t: 'refused', error: wireError(TelegramError.sessionInvalid('AUTH_KEY_DUPLICATED')) });
        socket.end();
        return undefined;
      }
      if (holder) {
        this.staleDrops += 1;
        this.drop(holder);
      }
    }
    const connection: Live = { socket, account, pid, session, openedAt: Date.now(), lastSeen: Date.now(), methods: [], subscriptions: new Map() };
    this.live.add(connection);
    this.connectionsAccepted += 1;
    send({ t: 'ready' });
    return connection;
  }

  private async call(connection: Live, id: number, method: string, args: unknown[], options: Record<string, unknown>, send: (frame: unknown) => void): Promise<void> {
    const sim = this.simulator as unknown as Record<string, (...parameters: unknown[]) => Promise<unknown>>;
    connection.methods = [...connection.methods.slice(-9), `${method}@${Date.now()}`];
    try {
      let value: unknown;
      if (connection.session && SESSION_METHODS.has(method)) {
        const session: TelegramSession = { accountName: connection.account, sessionString: connection.session };
        value = await sim[method].call(this.simulator, session, ...args, options);
        if (method === 'downloadMedia' && value) {
          const media = value as { data: Buffer; mimeType: string };
          value = { data: media.data.toString('base64'), mimeType: media.mimeType };
        }
      } else if (connection.session && method === 'subscribe') {
        const sub = this.nextSub++;
        const subscription = await this.simulator.subscribe(session(connection), (message) => send({ t: 'message', sub, message }), options);
        connection.subscriptions.set(sub, subscription);
        value = sub;
      } else if (method === 'unsubscribe') {
        const sub = Number(args[0]);
        await connection.subscriptions.get(sub)?.unsubscribe();
        connection.subscriptions.delete(sub);
        value = null;
      } else if (LOGIN_METHODS.has(method)) {
        value = await sim[method].call(this.simulator, ...args.map((arg) => (arg === null ? undefined : arg)), options);
      } else {
        throw new TelegramError('rpc_error', `Unknown method ${method}`);
      }
      send({ t: 'result', id, value: value ?? null });
    } catch (error) {
      send({ t: 'error', id, error: wireError(error) });
    }
  }

  // ----- control API (the test script's side) ---------------------------------------------------

  private async control(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    const answer = (status: number, value: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    try {
      const route = `${request.method} ${request.url}`;
      if (route === 'POST /users') {
        const user = this.simulator.createUser({ phone: String(body['phone']) });
        answer(200, { id: user.id, session: this.simulator.issueSession(user.id) });
      } else if (route === 'POST /checkin-bot') {
        // Answers every message at once and remembers who checked in when.
        const bot = this.simulator.addBot({
          username: String(body['username']),
          onMessage: (text, context) => {
            this.checkins.push({ user_id: context.user.id, text, at: Date.now() });
            return { text: 'Checked in' };
          },
        });
        answer(200, bot);
      } else if (route === 'POST /groups') {
        answer(200, this.simulator.addGroup({ id: String(body['id']), title: String(body['title']) }));
      } else if (route === 'POST /push') {
        const message = this.simulator.pushIncoming(String(body['user_id']), String(body['chat_id']), { text: String(body['text']), senderName: 'Seller', senderUsername: 'seller' });
        answer(200, { id: message.id });
      } else if (route === 'POST /latency') {
        this.simulator.setLatency(Number(body['ms']));
        answer(200, {});
      } else if (route === 'GET /report') {
        answer(200, { overlaps: this.overlaps, checkins: this.checkins, stale_drops: this.staleDrops, connections_accepted: this.connectionsAccepted, live: this.liveSessions() });
      } else {
        answer(404, { error: `no route ${route}` });
      }
    } catch (error) {
      answer(500, { error: error instanceof Error ? error.message : String(error) });
    }
  }
}

function session(connection: Live): TelegramSession {
  return { accountName: connection.account, sessionString: connection.session ?? '' };
}
