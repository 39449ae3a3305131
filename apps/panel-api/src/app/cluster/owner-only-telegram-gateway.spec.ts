import { TelegramError } from '../telegram/telegram-error';
import { TelegramSimulator } from '../../../test/telegram-simulator';
import { OwnerOnlyTelegramGateway } from './owner-only-telegram-gateway';

describe('OwnerOnlyTelegramGateway', () => {
  it('acts as an account only while this replica owns it; logins and disconnects pass through', async () => {
    const telegram = new TelegramSimulator();
    const user = telegram.createUser({ phone: '+31 600 990 001' });
    const session = { accountName: 'alice', sessionString: telegram.issueSession(user.id) };
    const owned = new Set(['alice']);
    const gateway = new OwnerOnlyTelegramGateway(telegram, { owns: (account) => owned.has(account) });

    await expect(gateway.getMe(session)).resolves.toMatchObject({ id: user.id });
    owned.delete('alice');
    for (const call of [() => gateway.getMe(session), () => gateway.sendMessage(session, '@bot', 'hi'), () => gateway.subscribe(session, () => undefined)]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TelegramError);
      expect(error).toMatchObject({ kind: 'aborted' });
    }
    // Only the first getMe reached Telegram.
    expect(telegram.callsOf('getMe')).toHaveLength(1);
    expect(telegram.callsOf('sendMessage')).toHaveLength(0);
    await expect(gateway.startPhoneLogin({ accountName: 'bob' }, '+31 600 990 001')).resolves.toMatchObject({ codeType: 'app' });
    await gateway.disconnect('alice');
    expect(telegram.disconnected).toEqual(['alice']);
  });
});
