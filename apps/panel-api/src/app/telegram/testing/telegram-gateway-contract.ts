import { TelegramError } from '../telegram-error';
import { QrLoginStatus, TelegramGateway, TelegramIncomingMessage, TelegramSession } from '../telegram-gateway';

/** The bot every contract world has, scripted the same way on both sides. */
export const CONTRACT_PHOTO = Buffer.from('a photo the bot sent');

export function contractBotAnswer(text: string): { text: string; inlineButtons?: string[]; replyKeyboard?: string[]; photo?: Buffer } | undefined {
  if (text === 'ping') return { text: 'pong', inlineButtons: ['Check in'] };
  if (text === '/menu') return { text: 'Menu', replyKeyboard: ['Balance'] };
  if (text === 'Balance') return { text: 'Balance: 5' };
  if (text === '/photo') return { text: 'Here it is', photo: CONTRACT_PHOTO };
  if (text === '🎲') return { text: 'Rolled' };
  return undefined;
}

export function contractBotCallback(button: string): string {
  return `Done: ${button}`;
}

export interface ContractWorld {
  gateway: TelegramGateway;
  session: TelegramSession;
  me: { id: string; username: string };
  bot: { chat: string; id: string };
  /** The bot writes to the account unprompted. */
  botWrites(text: string): void;
  /** Telegram's service account 777000 writes to the account. */
  officialWrites(text: string): void;
  /** The phone of the account and the code Telegram sent for the last phone login. */
  phone: string;
  loginCode(): string;
  /** The phone app scans the QR code of this login and accepts it. */
  scanQr(status: QrLoginStatus): void;
  close(): Promise<void>;
}

export interface ContractWorldOptions {
  /** The account has a 2FA password (with this hint). */
  password?: { value: string; hint: string };
}

export type ContractWorldFactory = (options: ContractWorldOptions) => Promise<ContractWorld>;

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * What every TelegramGateway does, as panel-api relies on it. Run against the GramJS adapter (on a
 * stubbed GramJS client) and against the simulator that every e2e test uses, so the two cannot drift.
 */
export function telegramGatewayContract(name: string, createWorld: ContractWorldFactory): void {
  describe(`TelegramGateway contract: ${name}`, () => {
    let world: ContractWorld;

    beforeEach(async () => {
      world = await createWorld({});
    });

    afterEach(async () => {
      await world.close();
    });

    it('says who the account is and answers a wake-up and a session export', async () => {
      const me = await world.gateway.getMe(world.session);
      expect(me).toMatchObject({ id: world.me.id, username: world.me.username });
      await expect(world.gateway.wakeUp(world.session)).resolves.toBeUndefined();
      expect(await world.gateway.exportSession(world.session)).toMatch(/^1[A-Za-z0-9+/=]+$/);
    });

    it('sends a message and reads the chat newest first, by minId and by ids', async () => {
      const sent = await world.gateway.sendMessage(world.session, world.bot.chat, 'ping');
      expect(sent).toMatchObject({ out: true, text: 'ping', chatId: world.bot.id, hasMedia: false, buttons: [] });
      expect(sent.id).toBeGreaterThan(0);
      const history = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 10 });
      expect(history.map((m) => m.text)).toEqual(['pong', 'ping']);
      expect(history[0]).toMatchObject({ out: false, senderId: world.bot.id, chatId: world.bot.id, buttons: [[{ text: 'Check in', kind: 'callback' }]] });
      expect(history[0].id).toBeGreaterThan(sent.id);
      expect((await world.gateway.getMessages(world.session, world.bot.chat, { minId: sent.id })).map((m) => m.text)).toEqual(['pong']);
      expect((await world.gateway.getMessages(world.session, world.bot.chat, { ids: [sent.id] })).map((m) => m.text)).toEqual(['ping']);
      expect((await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 })).map((m) => m.text)).toEqual(['pong']);
    });

    it('finds a chat by id as well as by @username, and answers not_found for an unknown username', async () => {
      await world.gateway.sendMessage(world.session, world.bot.id, 'ping');
      expect((await world.gateway.getMessages(world.session, world.bot.chat)).map((m) => m.text)).toEqual(['pong', 'ping']);
      await expect(world.gateway.sendMessage(world.session, '@nobody_here_bot', 'hi')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('throws a dice: a message of its own with the emoji as text and a value from 1 to 6', async () => {
      const dice = await world.gateway.sendDice(world.session, world.bot.chat, '🎲');
      expect(dice).toMatchObject({ out: true, text: '🎲', chatId: world.bot.id, hasMedia: true, mediaKind: 'dice' });
      expect(dice.diceValue).toBeGreaterThanOrEqual(1);
      expect(dice.diceValue).toBeLessThanOrEqual(6);
      const [newest] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      expect(newest.text).toBe('Rolled');
    });

    it('presses an inline button (callback answer) and a reply-keyboard button (sends its text)', async () => {
      await world.gateway.sendMessage(world.session, world.bot.chat, 'ping');
      const [pong] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      expect(await world.gateway.clickButton(world.session, world.bot.chat, pong.id, 'Check')).toEqual({
        kind: 'callback',
        answer: contractBotCallback('Check in'),
        alert: false,
      });

      await world.gateway.sendMessage(world.session, world.bot.chat, '/menu');
      const [menu] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      expect(menu.buttons).toEqual([[{ text: 'Balance', kind: 'reply' }]]);
      const pressed = await world.gateway.clickButton(world.session, world.bot.chat, menu.id, 'Balance');
      expect(pressed).toMatchObject({ kind: 'sent', message: { out: true, text: 'Balance' } });
      const [answer] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      expect(answer.text).toBe('Balance: 5');
    });

    it('answers not_found for a button that is not there and for a message that is not there', async () => {
      await world.gateway.sendMessage(world.session, world.bot.chat, 'ping');
      const [pong] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      await expect(world.gateway.clickButton(world.session, world.bot.chat, pong.id, 'Nope')).rejects.toMatchObject({ kind: 'not_found' });
      await expect(world.gateway.clickButton(world.session, world.bot.chat, pong.id + 1000, 'Check')).rejects.toMatchObject({ kind: 'not_found' });
      await expect(world.gateway.downloadMedia(world.session, world.bot.chat, pong.id + 1000)).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('waits for the first reply after a message from the given sender, and answers null when none comes in time', async () => {
      const sent = await world.gateway.sendMessage(world.session, world.bot.chat, 'ping');
      const reply = await world.gateway.waitForReply(world.session, world.bot.chat, sent.id, { fromId: world.bot.id, timeoutMs: 5_000 });
      expect(reply).toMatchObject({ text: 'pong', out: false, senderId: world.bot.id });

      const quiet = await world.gateway.sendMessage(world.session, world.bot.chat, 'no answer to this');
      const started = Date.now();
      expect(await world.gateway.waitForReply(world.session, world.bot.chat, quiet.id, { timeoutMs: 1_200 })).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);

      const late = world.gateway.waitForReply(world.session, world.bot.chat, quiet.id, { fromId: world.bot.id, timeoutMs: 10_000 });
      world.botWrites('later');
      expect(await late).toMatchObject({ text: 'later' });
    });

    it('downloads the media of a message, and answers null for a message without', async () => {
      const sent = await world.gateway.sendMessage(world.session, world.bot.chat, '/photo');
      const [photo] = await world.gateway.getMessages(world.session, world.bot.chat, { limit: 1 });
      expect(photo).toMatchObject({ text: 'Here it is', hasMedia: true, mediaKind: 'photo' });
      expect(await world.gateway.downloadMedia(world.session, world.bot.chat, photo.id)).toEqual({ data: CONTRACT_PHOTO, mimeType: 'image/jpeg' });
      expect(await world.gateway.downloadMedia(world.session, world.bot.chat, sent.id)).toBeNull();
    });

    it('deletes messages so that they are gone from the chat', async () => {
      const sent = await world.gateway.sendMessage(world.session, world.bot.chat, 'ping');
      await world.gateway.deleteMessages(world.session, world.bot.chat, [sent.id]);
      expect((await world.gateway.getMessages(world.session, world.bot.chat)).map((m) => m.text)).toEqual(['pong']);
      await expect(world.gateway.deleteMessages(world.session, world.bot.chat, [])).resolves.toBeUndefined();
    });

    it('pushes incoming messages to a subscriber until it unsubscribes', async () => {
      const first: TelegramIncomingMessage[] = [];
      const subscription = await world.gateway.subscribe(world.session, (message) => first.push(message));
      world.botWrites('hello there');
      await eventually(() => first.length === 1);
      expect(first[0]).toMatchObject({ text: 'hello there', out: false, chatId: world.bot.id, senderId: world.bot.id, chatType: 'user', event: 'new' });
      await subscription.unsubscribe();

      // A second subscriber sees the next message: once it has, the first one had its chance too.
      const second: TelegramIncomingMessage[] = [];
      const other = await world.gateway.subscribe(world.session, (message) => second.push(message));
      world.botWrites('after unsubscribe');
      await eventually(() => second.length === 1);
      expect(first.map((m) => m.text)).toEqual(['hello there']);
      await other.unsubscribe();
    });

    it('reads official messages from 777000 newest first, up to the limit', async () => {
      world.officialWrites('Login code: 11111');
      world.officialWrites('Login code: 22222');
      const messages = await world.gateway.getOfficialMessages(world.session, 1);
      expect(messages).toEqual([expect.objectContaining({ text: 'Login code: 22222', chatId: '777000', out: false })]);
    });

    it('lists devices with the current one as hash 0, and terminates another one', async () => {
      const devices = await world.gateway.getAuthorizations(world.session);
      expect(devices.filter((d) => d.current).map((d) => d.hash)).toEqual(['0']);
      const other = devices.find((d) => !d.current);
      expect(other?.hash).toMatch(/^-?\d+$/);
      await world.gateway.resetAuthorization(world.session, other?.hash ?? '');
      expect((await world.gateway.getAuthorizations(world.session)).map((d) => d.hash)).not.toContain(other?.hash);
    });

    it('logs in by phone: a wrong code is refused, the right one answers a new session', async () => {
      const started = await world.gateway.startPhoneLogin({ accountName: 'new-login' }, world.phone);
      expect(started).toEqual({ loginId: expect.stringMatching(/^[0-9a-f]{24}$/), codeType: 'app' });
      await expect(world.gateway.completePhoneLogin(started.loginId, '00000')).rejects.toMatchObject({ kind: 'invalid_credentials' });
      const done = await world.gateway.completePhoneLogin(started.loginId, world.loginCode());
      expect(done).toMatchObject({ status: 'success', user: { id: world.me.id, username: world.me.username } });
      expect(done.status === 'success' && done.sessionString).toMatch(/^1[A-Za-z0-9+/=]+$/);
      await expect(world.gateway.completePhoneLogin(started.loginId, world.loginCode())).rejects.toMatchObject({ kind: 'login_not_found' });
    });

    it('refuses an unknown login id and forgets a cancelled login', async () => {
      await expect(world.gateway.completePhoneLogin('0123456789abcdef01234567', '11111')).rejects.toBeInstanceOf(TelegramError);
      await expect(world.gateway.getQrLogin('0123456789abcdef01234567')).rejects.toMatchObject({ kind: 'login_not_found' });
      const qr = await world.gateway.startQrLogin({ accountName: 'new-login' });
      await world.gateway.cancelLogin(qr.loginId);
      await expect(world.gateway.getQrLogin(qr.loginId)).rejects.toMatchObject({ kind: 'login_not_found' });
    });

    it('logs in by QR code: waiting for the scan, then success once the phone accepted it', async () => {
      const started = await world.gateway.startQrLogin({ accountName: 'new-login' });
      expect(started).toMatchObject({ state: 'waiting_scan', qrUrl: expect.stringMatching(/^tg:\/\/login\?token=[A-Za-z0-9_-]+$/) });
      expect(started.expiresAt).toBeGreaterThan(Date.now() / 1000);
      expect(started.sessionString).toBeUndefined();
      expect((await world.gateway.getQrLogin(started.loginId)).state).toBe('waiting_scan');
      world.scanQr(started);
      const done = await world.gateway.getQrLogin(started.loginId);
      expect(done).toMatchObject({ state: 'success', user: { id: world.me.id, username: world.me.username }, sessionString: expect.stringMatching(/^1[A-Za-z0-9+/=]+$/) });
    });
  });

  describe(`TelegramGateway contract: ${name}, an account with a 2FA password`, () => {
    let world: ContractWorld;
    const password = { value: 'correct horse battery staple', hint: 'the usual' };

    beforeEach(async () => {
      world = await createWorld({ password });
    });

    afterEach(async () => {
      await world.close();
    });

    it('asks for the password after the code, refuses a wrong one and accepts the right one', async () => {
      const started = await world.gateway.startPhoneLogin({ accountName: 'new-login' }, world.phone);
      expect(await world.gateway.completePhoneLogin(started.loginId, world.loginCode())).toEqual({ status: 'password_required', hint: 'the usual' });
      await expect(world.gateway.completePhoneLogin(started.loginId, world.loginCode(), 'wrong password')).rejects.toMatchObject({ kind: 'invalid_credentials' });
      const done = await world.gateway.completePhoneLogin(started.loginId, world.loginCode(), password.value);
      expect(done).toMatchObject({ status: 'success', user: { id: world.me.id } });
    });

    it('asks for the password after the QR scan, refuses a wrong one and accepts the right one', async () => {
      const started = await world.gateway.startQrLogin({ accountName: 'new-login' });
      world.scanQr(started);
      expect(await world.gateway.getQrLogin(started.loginId)).toMatchObject({ state: 'password_required', passwordHint: 'the usual' });
      await expect(world.gateway.submitQrPassword(started.loginId, 'wrong password')).rejects.toMatchObject({ kind: 'invalid_credentials' });
      const done = await world.gateway.submitQrPassword(started.loginId, password.value);
      expect(done).toMatchObject({ state: 'success', user: { id: world.me.id }, sessionString: expect.stringMatching(/^1[A-Za-z0-9+/=]+$/) });
    });
  });
}
