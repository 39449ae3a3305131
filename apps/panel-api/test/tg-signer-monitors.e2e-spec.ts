import { LocalOpenAiServer, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeywordListenersService } from '../src/app/listeners/keyword-listeners.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

type Json = Record<string, unknown>;

const CHECKIN = '-1001111111111';
const CHANNEL = '-1007777777777';
const FORWARDED = '-1005555555555';
const HELP = '-1006666666666';

/**
 * The tg-signer monitors of the reference panel's export, imported as listen tasks, behave as
 * tg-signer's UserMonitor.on_message does on a simulated Telegram: replies with default_send_text
 * (deleted after delete_after), with the capture of send_text_search_regex, with the model's reply
 * to ai_prompt; from_user_ids and ignore_case decide what matches; ServerChan and http
 * external_forwards push every message of rule "all".
 */
describe('tg-signer monitors imported from TG-SignPulse behave the same', () => {
  const telegram = new TelegramSimulator();
  const receiver = new LocalWebhookReceiver();
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local' });
  let panel: RunningPanel;
  let token: string;
  let me: SimUser;
  const call = <T = Json>(method: string, path: string, body?: unknown) => requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });
  const settled = () => panel.app.get(KeywordListenersService).settled();
  const sentBy = (chatId: string) => telegram.history(me.id, chatId).filter((message) => message.out);

  beforeAll(async () => {
    await receiver.start();
    await openai.start();
    openai.setReply(() => '你好，我在。');
    me = telegram.createUser({ phone: '+31600000201', firstName: 'Me', username: 'me_account' });
    telegram.addGroup({ id: CHECKIN, title: 'Check-in' });
    telegram.addGroup({ id: CHANNEL, title: 'Codes', username: 'somechannel', type: 'channel' });
    telegram.addGroup({ id: FORWARDED, title: 'Everything' });
    telegram.addGroup({ id: HELP, title: 'Help' });
    // The listener learns the id of an @username chat from its history.
    telegram.pushIncoming(me.id, CHANNEL, { text: 'older post', senderName: 'Channel' });
    panel = await startPanel({ env: { APP_SERVER_CHAN_BASE_URL: receiver.urlFor('/sc') }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    expect((await call('PUT', '/api/config/settings', { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini', ai_api_key: 'sk-local' })).status).toBe(200);
    expect((await call('POST', '/api/accounts/import-session', { account_name: 'my_account', session_string: telegram.issueSession(me.id) })).status).toBe(201);

    const document = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'tg-signpulse', 'tg-signpulse-export-monitors.json'), 'utf8')) as { monitors: Record<string, { match_cfgs: Json[] }> };
    // Made observable here: a short delete_after, the http forward to the local receiver, and a helper
    // other than the account itself (the simulator delivers only other people's messages).
    document.monitors['auto_reply'].match_cfgs[0]['delete_after'] = 1;
    (document.monitors['forwarder'].match_cfgs[0]['external_forwards'] as Json[])[1]['url'] = receiver.urlFor('/tg-hook');
    document.monitors['ai_helper'].match_cfgs[0]['from_user_ids'] = ['helper_user'];
    const preview = await call<{ items: Json[] }>('POST', '/api/config/import-preview', { config_json: document, default_account: 'my_account' });
    const monitorKeys = preview.body.items.map((item) => item['key'] as string).filter((key) => key.startsWith('monitors:'));
    expect(monitorKeys).toEqual(['monitors:ai_helper', 'monitors:auto_reply', 'monitors:forwarder']);
    const imported = await call<Json>('POST', '/api/config/import/all', { config_json: document, default_account: 'my_account', selected: monitorKeys });
    expect(imported.status).toBe(200);
    // The account is logged in, so the restarted listener runs, and the report says so.
    expect(imported.body['post_import']).toEqual(expect.arrayContaining([{ name: 'keyword-listeners', ok: true, error: null }]));
  });

  afterAll(async () => {
    await panel?.close();
    await receiver.close();
    await openai.close();
  });

  it('replies default_send_text to a listed sender (id or username) and deletes the reply after delete_after', async () => {
    telegram.pushIncoming(me.id, CHECKIN, { text: '今天谁签到了', senderId: '123456789', senderName: 'Listed' });
    telegram.pushIncoming(me.id, CHECKIN, { text: '签到 please', senderId: '42', senderName: 'Bot', senderUsername: 'Some_Bot' });
    telegram.pushIncoming(me.id, CHECKIN, { text: '我也签到', senderId: '999', senderName: 'Stranger', senderUsername: 'stranger' });
    await waitFor(() => sentBy(CHECKIN).length === 2 || telegram.deletions.length > 0);
    await settled();
    const replies = telegram.calls.filter((entry) => entry.method === 'sendMessage' && String(entry.args[0]) === CHECKIN);
    expect(replies.map((entry) => entry.args[1])).toEqual(['签到', '签到']);
    await waitFor(() => telegram.deletions.filter((deletion) => deletion.chatId === CHECKIN).flatMap((deletion) => deletion.messageIds).length === 2, 10_000);
    expect(sentBy(CHECKIN)).toEqual([]);
  });

  it('replies the capture of send_text_search_regex, with \\w matching letters of every script as in Python', async () => {
    telegram.pushIncoming(me.id, CHANNEL, { text: '今日口令：红包ABC 快来', senderName: 'Channel' });
    telegram.pushIncoming(me.id, CHANNEL, { text: '没有口令', senderName: 'Channel' });
    await waitFor(() => sentBy(CHANNEL).length >= 1);
    await settled();
    expect(sentBy(CHANNEL).map((message) => message.text)).toEqual(['红包ABC']);
  });

  it("replies the model's answer to ai_prompt for an exact match (ignoring case) from the listed user", async () => {
    telegram.pushIncoming(me.id, HELP, { text: 'HELP', senderName: 'Helper', senderUsername: 'helper_user' });
    telegram.pushIncoming(me.id, HELP, { text: 'help me', senderName: 'Helper', senderUsername: 'helper_user' });
    telegram.pushIncoming(me.id, HELP, { text: 'help', senderName: 'Other', senderUsername: 'other_user' });
    await waitFor(() => sentBy(HELP).length >= 1);
    await settled();
    expect(sentBy(HELP).map((message) => message.text)).toEqual(['你好，我在。']);
    const request = openai.completions.at(-1);
    expect(JSON.stringify(request?.messages)).toContain('Answer briefly in Chinese.');
    expect(JSON.stringify(request?.messages)).toContain('HELP');
  });

  it('pushes every message of rule "all" through ServerChan and the http forward, and sends no reply', async () => {
    telegram.pushIncoming(me.id, FORWARDED, { text: 'anything at all', senderName: 'Someone' });
    await waitFor(() => receiver.requestsTo('/tg-hook').length === 1 && receiver.requestsTo('/sc/SCTfakeinterop1111111111111111.send').length === 1);
    await settled();
    expect(JSON.parse(receiver.requestsTo('/tg-hook')[0].bodyText)).toMatchObject({ event: 'keyword_hit', text: 'anything at all', task_name: 'forwarder' });
    expect(sentBy(FORWARDED)).toEqual([]);
  });
});
