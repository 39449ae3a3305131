import { ClosableTelegramGateway, LazyTelegramGateway } from './lazy-telegram-gateway';
import { TelegramSession } from './telegram-gateway';

const session: TelegramSession = { accountName: 'alice', sessionString: '1abc' };

function fakeGateway(): jest.Mocked<Pick<ClosableTelegramGateway, 'getMe' | 'sendMessage' | 'disconnect' | 'cancelLogin' | 'close'>> {
  return {
    getMe: jest.fn().mockResolvedValue({ id: 1, firstName: 'Alice' }),
    sendMessage: jest.fn().mockResolvedValue({ id: 7 }),
    disconnect: jest.fn().mockResolvedValue(undefined),
    cancelLogin: jest.fn().mockResolvedValue(undefined),
    close: jest.fn().mockResolvedValue(undefined),
  };
}

describe('LazyTelegramGateway', () => {
  it('builds the real gateway on the first call only, and forwards every argument', async () => {
    const real = fakeGateway();
    const load = jest.fn().mockResolvedValue(real);
    const gateway = new LazyTelegramGateway(load);
    expect(load).not.toHaveBeenCalled();
    expect(gateway.loaded).toBe(false);

    const signal = new AbortController().signal;
    await expect(gateway.getMe(session, { timeoutMs: 5, signal })).resolves.toEqual({ id: 1, firstName: 'Alice' });
    await Promise.all([gateway.sendMessage(session, { id: 42 } as never, 'hi'), gateway.getMe(session)]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(real.getMe).toHaveBeenNthCalledWith(1, session, { timeoutMs: 5, signal });
    expect(real.sendMessage).toHaveBeenCalledWith(session, { id: 42 }, 'hi', undefined);
  });

  it('does not load anything to disconnect, cancel or close when nothing was used', async () => {
    const load = jest.fn();
    const gateway = new LazyTelegramGateway(load);
    await gateway.disconnect('alice');
    await gateway.cancelLogin('login-1');
    await gateway.close();
    expect(load).not.toHaveBeenCalled();
  });

  it('forwards disconnect and cancel, and closes the loaded gateway', async () => {
    const real = fakeGateway();
    const gateway = new LazyTelegramGateway(async () => real as unknown as ClosableTelegramGateway);
    await gateway.getMe(session);
    await gateway.disconnect('alice');
    await gateway.cancelLogin('login-1');
    await gateway.close();
    expect(real.disconnect).toHaveBeenCalledWith('alice');
    expect(real.cancelLogin).toHaveBeenCalledWith('login-1');
    expect(real.close).toHaveBeenCalledTimes(1);
  });

  it('tries the load again after it failed', async () => {
    const real = fakeGateway();
    const load = jest.fn().mockRejectedValueOnce(new Error('cannot load')).mockResolvedValue(real);
    const gateway = new LazyTelegramGateway(load);
    await expect(gateway.getMe(session)).rejects.toThrow('cannot load');
    await expect(gateway.getMe(session)).resolves.toEqual({ id: 1, firstName: 'Alice' });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
