import { LocalWebhookReceiver } from '@shared/testing';
import { BarkSender, CustomWebhookSender, NtfySender, ServerChanSender } from './push-channels';
import { fetchRefusingRedirects, RedirectRefusedError } from './redirect-refusal';
import { TelegramBotSender } from './telegram-bot-sender';

/**
 * Every channel that sends a credential (a device key, a token, a signing key, a password) is sent
 * a 307 to another loopback port; that port must see nothing, and the error must name where the
 * redirect pointed.
 */
describe('redirects are never followed with credentials', () => {
  const saved = new LocalWebhookReceiver();
  const elsewhere = new LocalWebhookReceiver();

  beforeAll(async () => {
    await saved.start();
    await elsewhere.start();
  });

  afterAll(async () => {
    await saved.close();
    await elsewhere.close();
  });

  beforeEach(() => {
    saved.clearRequests();
    elsewhere.clearRequests();
    saved.replyNext({ status: 307, redirectTo: elsewhere.urlFor('/stolen?token=x') });
  });

  const where = () => `${new URL(elsewhere.urlFor('/stolen')).origin}/stolen`;

  it.each([
    ['Bark', () => new BarkSender(saved.urlFor('/DEVICEKEY/')).send({ title: 't', body: 'b' })],
    ['ServerChan', () => new ServerChanSender('SCT123KEY', { baseUrl: saved.urlFor('') }).send({ title: 't', body: 'b' })],
    ['ntfy', () => new NtfySender(saved.urlFor('/topic'), { accessToken: 'tk_secret' }).send({ title: 't', body: 'b' })],
    ['custom webhook', () => new CustomWebhookSender(saved.urlFor('/hook'), { secret: 'signing-secret' }).sendJson({ a: 1 })],
  ])('%s: refuses, names the target, and the other port receives nothing', async (_name, send) => {
    const result = await send();
    expect(result).toMatchObject({ outcome: 'permanent', status: 307, errorCode: 'redirect_refused' });
    expect(result.message).toBe(`the server redirected (HTTP 307) to ${where()}; redirects are not followed, so credentials never go elsewhere: save the final URL instead`);
    expect(saved.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('Telegram bot: does not follow, so the bot token never reaches the other port', async () => {
    const result = await new TelegramBotSender({ token: '123:bot-token', baseUrl: saved.urlFor('') }).sendMessage({ chatId: '1', text: 'x' });
    expect(result.ok).toBe(false);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('fetchRefusingRedirects (WebDAV, AI): throws RedirectRefusedError and sends nothing to the target', async () => {
    const guarded = fetchRefusingRedirects();
    const error = await guarded(saved.urlFor('/dav/'), { method: 'PROPFIND', headers: { authorization: 'Basic dXNlcjpwYXNz' } }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as Error).message).toContain(where());
    expect(elsewhere.requests).toHaveLength(0);
    saved.replyNext({ status: 200, body: 'ok' });
    expect((await guarded(saved.urlFor('/dav/'))).status).toBe(200);
  });
});

describe('the address guard of the push channels', () => {
  const receiver = new LocalWebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('refuses a loopback receiver unless private addresses are allowed, sending it nothing', async () => {
    const refused = await new NtfySender(receiver.urlFor('/topic'), { accessToken: 'tk', addressGuard: { allowPrivate: false } }).send({ title: 't', body: 'b' });
    expect(refused).toMatchObject({ outcome: 'permanent', errorCode: 'private_target_refused', message: 'target resolves to a loopback address' });
    const webhook = await new CustomWebhookSender(receiver.urlFor('/hook'), { addressGuard: { allowPrivate: false } }).sendJson({ a: 1 });
    expect(webhook).toMatchObject({ outcome: 'permanent', errorCode: 'private_target_refused' });
    expect(receiver.requests).toHaveLength(0);
    const allowed = await new BarkSender(receiver.urlFor('/KEY/'), { addressGuard: { allowPrivate: true } }).send({ title: 't', body: 'b' });
    expect(allowed.outcome).toBe('sent');
    expect(receiver.requests).toHaveLength(1);
  });
});
