// Database-free: the Telegram simulator itself, no service involved.
import { TelegramIncomingMessage, TelegramSession } from '../src/app/telegram/telegram-gateway';
import { TelegramSimulator } from './telegram-simulator';

/** The simulator as the sign-task runner and keyword listeners will drive it. */
describe('TelegramSimulator', () => {
  const telegram = new TelegramSimulator();
  const user = telegram.createUser({ phone: '+31644444444' });
  const session: TelegramSession = { accountName: 'runner', sessionString: telegram.issueSession(user.id) };
  const bot = telegram.addBot({
    username: 'checkin_bot',
    onMessage: (text) =>
      text === '/sign'
        ? { text: 'Choose', inlineButtons: [['Sign in', 'Cancel']] }
        : { text: `echo ${text}`, replyKeyboard: [['Menu']] },
    onCallback: (button) => (button === 'Sign in' ? { answer: 'Signed in!', edit: { text: 'Done for today' } } : undefined),
  });

  it('answers text, presses inline and reply buttons, waits for replies', async () => {
    const sent = await telegram.sendMessage(session, '@checkin_bot', '/sign');
    const reply = await telegram.waitForReply(session, bot.id, sent.id, { timeoutMs: 1000 });
    expect(reply).toMatchObject({ text: 'Choose', senderId: bot.id });
    expect(reply?.buttons[0].map((b) => b.kind)).toEqual(['callback', 'callback']);
    const click = await telegram.clickButton(session, bot.id, reply?.id ?? 0, 'Sign in');
    expect(click).toEqual({ kind: 'callback', answer: 'Signed in!', alert: false });
    const [edited] = await telegram.getMessages(session, bot.id, { ids: [reply?.id ?? 0] });
    expect(edited.text).toBe('Done for today');
    await expect(telegram.clickButton(session, bot.id, reply?.id ?? 0, 'Nope')).rejects.toMatchObject({ kind: 'not_found' });

    const echo = await telegram.sendMessage(session, bot.id, 'hi');
    const echoed = await telegram.waitForReply(session, bot.id, echo.id, { timeoutMs: 1000 });
    const pressed = await telegram.clickButton(session, bot.id, echoed?.id ?? 0, 'Menu');
    expect(pressed).toMatchObject({ kind: 'sent', message: { text: 'Menu', out: true } });
    expect(await telegram.waitForReply(session, bot.id, 1_000_000, { timeoutMs: 50 })).toBeNull();
  });

  it('sends dice into forum topics and pushes incoming group messages to subscribers until unsubscribed', async () => {
    const group = telegram.addGroup({ id: '-1001234567890', title: 'Deals', forum: true });
    const dice = await telegram.sendDice(session, group.id, '🎲', { threadId: 7 });
    expect(dice).toMatchObject({ mediaKind: 'dice', threadId: 7 });
    expect(dice.diceValue).toBeGreaterThanOrEqual(1);
    const seen: TelegramIncomingMessage[] = [];
    const subscription = await telegram.subscribe(session, (message) => seen.push(message));
    telegram.pushIncoming(user.id, group.id, { text: 'cheap coffee today', senderName: 'Shop', threadId: 7 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([expect.objectContaining({ text: 'cheap coffee today', chatTitle: 'Deals', chatType: 'group', event: 'new', threadId: 7 })]);
    await subscription.unsubscribe();
    telegram.pushIncoming(user.id, group.id, { text: 'later' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1);
  });

  it('injects flood waits and honours deadlines and abort signals', async () => {
    telegram.floodWaitNext(12, { method: 'sendMessage' });
    await expect(telegram.sendMessage(session, bot.id, 'x')).rejects.toMatchObject({ kind: 'flood_wait', details: { seconds: 12 } });
    telegram.setHanging('runner');
    await expect(telegram.getMe(session, { timeoutMs: 30 })).rejects.toMatchObject({ kind: 'timeout' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(telegram.getMe(session, { timeoutMs: 5000, signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    telegram.setHanging('runner', false);
  });
});
