import { SimulatorTelegramGateway } from '../src/app/telegram/simulator-telegram-gateway';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { TelegramIncomingMessage } from '../src/app/telegram/telegram-gateway';
import { TelegramSimulatorServer } from './telegram-simulator-server';

/** Polls `check` every 20 ms until it holds, at most `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The simulator served to other processes (APP_TELEGRAM_GATEWAY=simulator): two gateways stand for
 * two replicas. One session is live in one of them at a time, as at Telegram.
 */
describe('Telegram simulator server and the simulator gateway', () => {
  let server: TelegramSimulatorServer;
  let url: string;
  const gateways: SimulatorTelegramGateway[] = [];
  const gateway = (): SimulatorTelegramGateway => {
    const created = new SimulatorTelegramGateway(url);
    gateways.push(created);
    return created;
  };

  beforeEach(async () => {
    server = new TelegramSimulatorServer({ staleMs: 1000 });
    url = (await server.listen()).gatewayUrl;
  });

  afterEach(async () => {
    for (const created of gateways.splice(0)) await created.close();
    await server.close();
  });

  it('acts as the account, pushes subscribed messages, and refuses a second live connection of the session (AUTH_KEY_DUPLICATED), recorded as an overlap', async () => {
    const user = server.simulator.createUser({ phone: '+31 600 880 001' });
    server.simulator.addGroup({ id: '-100880', title: 'Deals' });
    const session = { accountName: 'alice', sessionString: server.simulator.issueSession(user.id) };
    const one = gateway();
    const two = gateway();

    await expect(one.getMe(session)).resolves.toMatchObject({ id: user.id });
    const received: TelegramIncomingMessage[] = [];
    await one.subscribe(session, (message) => received.push(message));
    server.simulator.pushIncoming(user.id, '-100880', { text: 'a deal' });
    await until(() => received.length === 1, 5000, 'the pushed message');
    expect(received[0]).toMatchObject({ text: 'a deal', chatId: '-100880', chatTitle: 'Deals' });

    const refused = await two.getMe(session).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TelegramError);
    expect(refused).toMatchObject({ kind: 'session_invalid', details: { rpcMessage: 'AUTH_KEY_DUPLICATED' } });
    expect(server.overlaps).toEqual([expect.objectContaining({ account: 'alice', holder_methods: [expect.stringMatching(/^getMe@/), expect.stringMatching(/^subscribe@/)] })]);

    // Once the first lets go of the session, the second may use it.
    await one.disconnect('alice');
    await until(() => !server.liveSessions()['alice'], 5000, 'the first connection to close');
    await expect(two.getMe(session)).resolves.toMatchObject({ id: user.id });
    expect(server.overlaps).toHaveLength(1);
  });

  it('drops a connection that stopped pinging (a paused process) without counting an overlap', async () => {
    const user = server.simulator.createUser({ phone: '+31 600 880 002' });
    const session = { accountName: 'bob', sessionString: server.simulator.issueSession(user.id) };
    const one = gateway();
    await one.getMe(session);
    // A connection that says nothing for longer than staleMs counts as gone, as a paused replica's would.
    const live = [...(server as unknown as { live: Set<{ lastSeen: number }> }).live];
    for (const connection of live) connection.lastSeen = Date.now() - 5000;
    await until(() => server.staleDrops === 1, 5000, 'the silent connection to be dropped');
    await expect(gateway().getMe(session)).resolves.toMatchObject({ id: user.id });
    expect(server.overlaps).toEqual([]);
  });

  it('passes errors, timeouts and logins through as the in-process simulator answers them', async () => {
    const user = server.simulator.createUser({ phone: '+31 600 880 003' });
    const session = { accountName: 'carol', sessionString: server.simulator.issueSession(user.id) };
    const one = gateway();
    server.simulator.floodWaitNext(7, { accountName: 'carol', method: 'sendMessage' });
    await expect(one.sendMessage(session, '@nobody', 'hi')).rejects.toMatchObject({ kind: 'flood_wait', details: { seconds: 7 } });
    await expect(one.sendMessage(session, '@nobody', 'hi')).rejects.toMatchObject({ kind: 'not_found' });
    server.simulator.setHanging('carol');
    await expect(one.getMe(session, { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
    server.simulator.setHanging('carol', false);

    const started = await one.startPhoneLogin({ accountName: 'dave' }, '+31 600 880 003');
    const code = server.simulator.lastLoginCode('+31 600 880 003') ?? '';
    const step = await one.completePhoneLogin(started.loginId, code);
    expect(step).toMatchObject({ status: 'success', user: { id: user.id } });
    await expect(one.completePhoneLogin(started.loginId, code)).rejects.toMatchObject({ kind: 'login_not_found' });
  });
});
