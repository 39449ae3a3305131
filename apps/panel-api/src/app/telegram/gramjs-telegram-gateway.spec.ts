import { createServer, Server, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Api, errors, helpers } from 'telegram';
import { StringSession } from 'telegram/sessions';
import { deleteMessages as gramJsDeleteMessages } from 'telegram/client/messages';
import type { TelegramClient } from 'telegram';
import { GramJsClient, GramJsTelegramGateway, gramJsProxyParams } from './gramjs-telegram-gateway';
import { waitFor } from '@shared/testing';
import { encodeSessionString } from './session-string';
import { TelegramError } from './telegram-error';
import { TelegramSession } from './telegram-gateway';
import { StubGramJsClient as ScriptedClient, StubTelegramWorld } from './testing/stub-gramjs-client';

const credentials = { apiId: 12345, apiHash: '0123456789abcdef0123456789abcdef' };

function sessionTo(serverAddress: string, proxy?: TelegramSession['proxy']): TelegramSession {
  return { accountName: 'acc', sessionString: encodeSessionString({ dcId: 2, serverAddress, port: 443, authKey: randomBytes(256) }), proxy };
}

/** A stand-in for GramJS's TelegramClient: records each request object and answers like Telegram would. */
class StubGramJsClient {
  readonly requests: Api.AnyRequest[] = [];
  connects = 0;
  destroyed = 0;
  readonly session = new StringSession('');

  constructor(private readonly answer: (request: Api.AnyRequest) => unknown) {}

  async connect(): Promise<boolean> {
    this.connects += 1;
    return true;
  }

  async destroy(): Promise<void> {
    this.destroyed += 1;
  }

  async invoke(request: Api.AnyRequest): Promise<unknown> {
    this.requests.push(request);
    return this.answer(request);
  }

  async getInputEntity(id: number | string): Promise<Api.TypeInputPeer> {
    const text = String(id);
    if (text.startsWith('-100')) return new Api.InputPeerChannel({ channelId: helpers.returnBigInt(text.slice(4)), accessHash: helpers.returnBigInt('123456789') });
    return new Api.InputPeerUser({ userId: helpers.returnBigInt(/^\d+$/.test(text) ? text : '555'), accessHash: helpers.returnBigInt('987654321') });
  }

  /** GramJS's own implementation, so the requests it builds from our arguments are the ones recorded. */
  async deleteMessages(entity: string | number, messageIds: number[], options: { revoke?: boolean }): Promise<unknown> {
    return gramJsDeleteMessages(this as unknown as TelegramClient, entity, messageIds, { revoke: options.revoke ?? false });
  }

  async getMe(): Promise<Api.User> {
    return new Api.User({ id: helpers.returnBigInt(42), firstName: 'Me', username: 'me' });
  }
}

function authorization(hash: string, current: boolean): Api.Authorization {
  return new Api.Authorization({
    hash: helpers.returnBigInt(hash),
    current,
    officialApp: !current,
    deviceModel: current ? 'signpulse panel' : 'Pixel 8',
    platform: current ? 'Linux' : 'Android',
    systemVersion: '14',
    apiId: 1,
    appName: current ? 'signpulse' : 'Telegram Android',
    appVersion: '10.0',
    dateCreated: 1_700_000_000,
    dateActive: 1_700_000_500,
    ip: '203.0.113.1',
    country: 'Netherlands',
    region: 'Utrecht',
  });
}

describe('GramJsTelegramGateway request construction (stubbed GramJS client)', () => {
  let stub: StubGramJsClient;
  let gateway: GramJsTelegramGateway;

  beforeEach(() => {
    stub = new StubGramJsClient((request) => {
      if (request instanceof Api.account.GetAuthorizations) {
        return new Api.account.Authorizations({
          authorizationTtlDays: 180,
          authorizations: [authorization('0', true), authorization('-8070450532247928832', false)],
        });
      }
      if (request instanceof Api.messages.GetHistory) {
        return new Api.messages.Messages({
          messages: [
            new Api.Message({ id: 9, peerId: new Api.PeerUser({ userId: helpers.returnBigInt(777000) }), date: 1_700_000_900, message: 'Login code: 12345' }),
          ],
          chats: [],
          users: [],
        });
      }
      return true;
    });
    gateway = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => stub as unknown as GramJsClient });
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('lists authorizations with account.getAuthorizations and keeps the 64-bit hash exact', async () => {
    const devices = await gateway.getAuthorizations(sessionTo('149.154.167.51'));
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]).toBeInstanceOf(Api.account.GetAuthorizations);
    expect(devices.map((d) => [d.hash, d.current, d.officialApp, d.deviceModel])).toEqual([
      ['0', true, false, 'signpulse panel'],
      ['-8070450532247928832', false, true, 'Pixel 8'],
    ]);
  });

  it('terminates a device with account.resetAuthorization carrying the hash as a 64-bit integer', async () => {
    await gateway.resetAuthorization(sessionTo('149.154.167.51'), '-8070450532247928832');
    const request = stub.requests[0];
    expect(request).toBeInstanceOf(Api.account.ResetAuthorization);
    expect((request as Api.account.ResetAuthorization).hash.toString()).toBe('-8070450532247928832');
    // The exact bytes GramJS sends: constructor id, then the long in little-endian two's complement.
    const bytes = request.getBytes();
    expect(bytes.readBigInt64LE(4)).toBe(-8070450532247928832n);
  });

  it('reads official messages with messages.getHistory on peer 777000 and the limit, and nothing else', async () => {
    const messages = await gateway.getOfficialMessages(sessionTo('149.154.167.51'), 15);
    expect(stub.requests).toHaveLength(1);
    const request = stub.requests[0] as Api.messages.GetHistory;
    expect(request).toBeInstanceOf(Api.messages.GetHistory);
    expect(request.limit).toBe(15);
    expect(request.peer).toBeInstanceOf(Api.InputPeerUser);
    expect((request.peer as Api.InputPeerUser).userId.toString()).toBe('777000');
    expect(stub.requests.some((r) => r instanceof Api.messages.ReadHistory)).toBe(false);
    expect(messages).toEqual([expect.objectContaining({ id: 9, text: 'Login code: 12345', chatId: '777000', date: 1_700_000_900 })]);
  });

  it('wakes an account with account.updateStatus(offline=false)', async () => {
    await gateway.wakeUp(sessionTo('149.154.167.51'));
    const request = stub.requests[0] as Api.account.UpdateStatus;
    expect(request).toBeInstanceOf(Api.account.UpdateStatus);
    expect(request.offline).toBe(false);
  });

  it('deletes messages for everyone: messages.deleteMessages with revoke in private chats, channels.deleteMessages in channels', async () => {
    const session = sessionTo('149.154.167.51');
    await gateway.deleteMessages(session, '@checkin_bot', [41, 42]);
    expect(stub.requests).toHaveLength(1);
    const privateRequest = stub.requests[0] as Api.messages.DeleteMessages;
    expect(privateRequest).toBeInstanceOf(Api.messages.DeleteMessages);
    expect(privateRequest.id).toEqual([41, 42]);
    expect(privateRequest.revoke).toBe(true);

    await gateway.deleteMessages(session, '-1001234567890', [7]);
    const channelRequest = stub.requests[1] as Api.channels.DeleteMessages;
    expect(channelRequest).toBeInstanceOf(Api.channels.DeleteMessages);
    expect(channelRequest.id).toEqual([7]);
    expect((channelRequest.channel as Api.InputPeerChannel).channelId.toString()).toBe('1234567890');

    await gateway.deleteMessages(session, '@checkin_bot', []);
    expect(stub.requests).toHaveLength(2);
  });

  it('reuses one connection per account and closes it on disconnect and when idle', async () => {
    const session = sessionTo('149.154.167.51');
    await gateway.wakeUp(session);
    await gateway.getAuthorizations(session);
    expect(stub.connects).toBe(1);
    expect(gateway.openConnections).toBe(1);
    await gateway.disconnect('acc');
    expect(stub.destroyed).toBe(1);
    expect(gateway.openConnections).toBe(0);

    const idle = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => stub as unknown as GramJsClient, idleCloseMs: 50 });
    await idle.wakeUp(session);
    await waitFor(() => idle.openConnections === 0, 10_000);
    await idle.close();
  });

  it('maps the RPCError GramJS throws for AUTH_KEY_UNREGISTERED to session_invalid', async () => {
    const failing = new StubGramJsClient((request) => {
      throw new errors.RPCError('AUTH_KEY_UNREGISTERED', request, 401);
    });
    const broken = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => failing as unknown as GramJsClient });
    await expect(broken.wakeUp(sessionTo('149.154.167.51'))).rejects.toMatchObject({ kind: 'session_invalid' });
    await broken.close();
  });

  it('refuses to create a client without API id and hash', async () => {
    const unconfigured = new GramJsTelegramGateway({ credentials: () => undefined });
    await expect(unconfigured.getMe(sessionTo('149.154.167.51'))).rejects.toMatchObject({ kind: 'not_configured' });
    await unconfigured.close();
  });

  it('maps proxies to GramJS options', () => {
    expect(gramJsProxyParams({ type: 'socks5', host: 'h', port: 1080, username: 'u', password: 'p' }, 5000)).toEqual({
      proxy: { ip: 'h', port: 1080, socksType: 5, username: 'u', password: 'p', timeout: 5 },
    });
    expect(gramJsProxyParams({ type: 'mtproxy', host: 'm', port: 443, secret: 'ee00' }, 5000)).toEqual({
      proxy: { ip: 'm', port: 443, secret: 'ee00', MTProxy: true, timeout: 5 },
    });
    expect(gramJsProxyParams({ type: 'http', host: 'h', port: 3128 }, 5000).networkSocket).toBeDefined();
  });
});

describe('GramJsTelegramGateway requests beyond the contract (scripted GramJS client)', () => {
  const me = { id: 4242, firstName: 'Me', username: 'me', phone: '3161234567' };
  const bot = {
    id: 7001,
    username: 'forum_bot',
    onMessage: (text: string) => (text === 'links' ? { text: 'Links', urlButtons: [{ text: 'Docs', url: 'https://example.org/docs' }] } : undefined),
    onCallback: () => 'ok',
  };
  let world: StubTelegramWorld;
  let gateway: GramJsTelegramGateway;

  function connect(options: Partial<ConstructorParameters<typeof StubTelegramWorld>[0]> = {}): void {
    world = new StubTelegramWorld({ me, bot, loginCode: '11111', ...options });
    gateway = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => world.newClient() });
  }

  function clients(): ScriptedClient[] {
    return [...world.clients];
  }

  afterEach(async () => {
    await gateway.close();
  });

  it('sends into a forum topic: replyTo and topMsgId carry the thread, a reply its message id', async () => {
    connect();
    const session = sessionTo('149.154.167.51');
    await gateway.sendMessage(session, '@forum_bot', 'in the topic', { threadId: 77 });
    await gateway.sendMessage(session, '@forum_bot', 'a reply', { threadId: 77, replyToMessageId: 80 });
    await gateway.sendMessage(session, 7001, 'plain');
    expect(clients()[0].sentMessages).toEqual([
      { ref: '@forum_bot', message: 'in the topic', replyTo: 77, topMsgId: 77 },
      { ref: '@forum_bot', message: 'a reply', replyTo: 80, topMsgId: 77 },
      { ref: 7001, message: 'plain', replyTo: undefined, topMsgId: undefined },
    ]);
  });

  it('throws a dice with messages.sendMedia(inputMediaDice) and a random id, into a topic when asked', async () => {
    connect();
    const session = sessionTo('149.154.167.51');
    await gateway.sendDice(session, '@forum_bot', '🎯', { threadId: 12 });
    const request = clients()[0].requests.find((r): r is Api.messages.SendMedia => r instanceof Api.messages.SendMedia);
    expect(request?.media).toBeInstanceOf(Api.InputMediaDice);
    expect((request?.media as Api.InputMediaDice).emoticon).toBe('🎯');
    expect(String(request?.randomId)).toMatch(/^-?\d+$/);
    expect(request?.replyTo).toBeInstanceOf(Api.InputReplyToMessage);
    expect(request?.replyTo).toMatchObject({ replyToMsgId: 12, topMsgId: 12 });
  });

  it('presses a link button without asking the bot: it answers the URL', async () => {
    connect();
    const session = sessionTo('149.154.167.51');
    await gateway.sendMessage(session, '@forum_bot', 'links');
    const [links] = await gateway.getMessages(session, '@forum_bot', { limit: 1 });
    expect(links.buttons).toEqual([[{ text: 'Docs', kind: 'url', url: 'https://example.org/docs' }]]);
    expect(await gateway.clickButton(session, '@forum_bot', links.id, 'Docs')).toEqual({ kind: 'callback', alert: false, url: 'https://example.org/docs' });
    expect(clients()[0].requests.some((r) => r instanceof Api.messages.GetBotCallbackAnswer)).toBe(false);
  });

  it('completes a QR login on the data center the account lives on: exportLoginToken, migrate, _switchDC(4), importLoginToken', async () => {
    connect();
    const started = await gateway.startQrLogin({ accountName: 'new' });
    const [login] = clients();
    world.scanQr(started.qrUrl ?? '');
    expect(await gateway.getQrLogin(started.loginId)).toMatchObject({ state: 'success', user: { id: '4242' } });
    expect(login.dcId).toBe(4);
    expect(login.requests.map((r) => r.className)).toEqual(['auth.ExportLoginToken', 'auth.ExportLoginToken', 'auth.ImportLoginToken']);
    const imported = login.requests[2] as Api.auth.ImportLoginToken;
    expect(imported.token.toString('base64url')).toBe(started.qrUrl?.replace('tg://login?token=', ''));
  });

  it('reports an expired QR token as expired without asking Telegram again', async () => {
    connect({ qrLifetimeSeconds: -1 });
    const started = await gateway.startQrLogin({ accountName: 'new' });
    const [login] = clients();
    expect((await gateway.getQrLogin(started.loginId)).state).toBe('expired');
    expect(login.requests).toHaveLength(1);
  });

  it('closes the login connection once a phone login succeeded, and at once when Telegram refuses the phone number', async () => {
    connect();
    const started = await gateway.startPhoneLogin({ accountName: 'new' }, '+31 6 1234 5678');
    expect(started.codeType).toBe('app');
    const [login] = clients();
    await gateway.completePhoneLogin(started.loginId, '11111');
    await new Promise((resolve) => setImmediate(resolve));
    expect(login.destroyed).toBe(true);
    await expect(gateway.startPhoneLogin({ accountName: 'new' }, '12')).rejects.toMatchObject({ kind: 'invalid_credentials' });
    expect(clients()).toHaveLength(0);
  });

  it('keeps a subscribed connection open past the idle limit and removes both handlers on unsubscribe', async () => {
    world = new StubTelegramWorld({ me, bot, loginCode: '11111' });
    gateway = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => world.newClient(), idleCloseMs: 30 });
    const session = sessionTo('149.154.167.51');
    const subscription = await gateway.subscribe(session, () => undefined);
    const [client] = clients();
    expect(client.handlerCount).toBe(2);
    // Another account's connection, unsubscribed: once the sweeper has closed it, it has passed the subscribed one too.
    await gateway.wakeUp({ ...sessionTo('149.154.167.51'), accountName: 'other' });
    expect(gateway.openConnections).toBe(2);
    await waitFor(() => gateway.openConnections === 1, 10_000);
    expect(client.destroyed).toBe(false);
    await subscription.unsubscribe();
    expect(client.handlerCount).toBe(0);
  });

  it('drops a connection that timed out, so the next call connects afresh', async () => {
    connect();
    const session = sessionTo('149.154.167.51');
    await gateway.wakeUp(session);
    const [first] = clients();
    first.invoke = () => new Promise(() => undefined);
    await expect(gateway.wakeUp(session, { timeoutMs: 100 })).rejects.toMatchObject({ kind: 'timeout' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(first.destroyed).toBe(true);
    await gateway.wakeUp(session);
    expect(clients()).toHaveLength(1);
    expect(clients()[0]).not.toBe(first);
  });
});

describe('GramJsTelegramGateway when Telegram cannot be reached (real GramJS client)', () => {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();

  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  /**
   * A blackhole we own: an HTTP proxy that accepts the CONNECT and then never answers a byte, as a
   * data center that stopped answering would. (GramJS always dials port 80 or 443 of the session's
   * address, so a silent local port cannot stand in for the data center itself.)
   */
  async function silentHttpProxy(): Promise<number> {
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.once('data', () => socket.write('HTTP/1.1 200 Connection established\r\n\r\n'));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  /** A local "HTTP proxy" that refuses every CONNECT. */
  async function refusingHttpProxy(): Promise<number> {
    const server = createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  afterAll(async () => {
    await Promise.all(
      servers.map((server) => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  async function expectCleanFailure(session: TelegramSession, kinds: TelegramError['kind'][], timeoutMs = 1500): Promise<void> {
    const gateway = new GramJsTelegramGateway({ credentials: () => credentials });
    const started = Date.now();
    try {
      const error = await gateway.getMe(session, { timeoutMs }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TelegramError);
      expect(kinds).toContain((error as TelegramError).kind);
      expect(Date.now() - started).toBeLessThan(timeoutMs + 3000);
      expect(gateway.openConnections).toBe(0);
    } finally {
      await gateway.close();
    }
  }

  it('fails within the deadline on an address that never answers', async () => {
    await expectCleanFailure(sessionTo('149.154.167.51', { type: 'http', host: '127.0.0.1', port: await silentHttpProxy() }), ['timeout']);
  });

  it('fails with a connection error through a SOCKS5 proxy on a closed port', async () => {
    await expectCleanFailure(sessionTo('149.154.167.51', { type: 'socks5', host: '127.0.0.1', port: await closedPort() }), ['connection_error']);
  });

  it('fails with a connection error through an HTTP proxy on a closed port or one that refuses CONNECT', async () => {
    await expectCleanFailure(sessionTo('149.154.167.51', { type: 'http', host: '127.0.0.1', port: await closedPort() }), ['connection_error']);
    await expectCleanFailure(sessionTo('149.154.167.51', { type: 'http', host: '127.0.0.1', port: await refusingHttpProxy() }), ['connection_error']);
  });

  it('honours the caller signal', async () => {
    const gateway = new GramJsTelegramGateway({ credentials: () => credentials });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const session = sessionTo('149.154.167.51', { type: 'http', host: '127.0.0.1', port: await silentHttpProxy() });
    await expect(gateway.getMe(session, { timeoutMs: 10_000, signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // Far below the 10 s deadline: the abort ended the call, not the timeout.
    expect(Date.now() - started).toBeLessThan(5000);
    await gateway.close();
  });
});
