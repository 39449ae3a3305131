import { ConflictException, NotFoundException } from '@nestjs/common';
import { TelegramSimulator } from '../../../test/telegram-simulator';
import type { AccountSessionsService } from '../accounts/account-sessions.service';
import { AccountNotFound, NeedsRelogin, PanelError } from '../common/panel-error';
import type { TaskAction } from '../sign-tasks/sign-task.types';
import { ActionRunner } from './action-runner';
import { AiClient, AiQuestion } from './ai-client';
import { DEFAULT_RUN_TIMINGS } from './run-timings';

/** Actions 1 and 9 as listen follow-ups, on the Telegram simulator (a real stand-in of the gateway port). */
describe('ActionRunner follow-ups (as the reference panel runs them)', () => {
  const telegram = new TelegramSimulator();
  const me = telegram.createUser({ phone: '+31600000301', firstName: 'Me' });
  const session = { accountName: 'main', sessionString: telegram.issueSession(me.id) };
  const started: string[] = [];
  for (const username of ['RedPacketBot', 'LinkBot', 'OtherBot']) {
    telegram.addBot({ username, onMessage: (text) => (started.push(`${username} ${text}`), { text: 'ok' }) });
  }
  telegram.addGroup({ id: '-100900', title: 'Group' });
  const questions: AiQuestion[] = [];
  const ai: AiClient = {
    answer: async (question) => {
      questions.push(question);
      return 'model reply';
    },
  };
  const sessions = { sessionFor: () => session, gateway: telegram, markSessionInvalid: () => undefined } as unknown as AccountSessionsService;
  const runner = new ActionRunner(sessions, ai, { ...DEFAULT_RUN_TIMINGS, replyWaitMs: 50 });
  const variables = (message: string, keyword = '') => ({
    keyword,
    message,
    text: message,
    sender: '@someone',
    chat_id: '-100900',
    chat_title: 'Group',
    message_id: '1',
    url: '',
    task_name: 't',
    account_name: 'main',
  });
  const run = (actions: TaskAction[], message: string, keyword = '') => runner.runActions('main', { chat_id: -100900 }, actions, { variables: variables(message, keyword) });
  const sentTexts = () => telegram.history(me.id, '-100900').filter((m) => m.out).map((m) => m.text).reverse();

  beforeEach(() => {
    started.length = 0;
  });

  it('action 9: follows every deep link of the message, the bot replaced by bot_username, with command_prefix, at most max_batch', async () => {
    const message = 'codes: t.me/LinkBot?start=AAA https://t.me/LinkBot?start=BBB t.me/LinkBot?start=AAA t.me/LinkBot?start=CCC';
    const result = await run([{ action: 9, max_batch: 2 }], message);
    expect(result.success).toBe(true);
    expect(started).toEqual(['LinkBot /start AAA', 'LinkBot /start BBB']);
    started.length = 0;
    expect((await run([{ action: 9, bot_username: '@RedPacketBot', command_prefix: 'go' }], 't.me/LinkBot?start=XYZ')).success).toBe(true);
    expect(started).toEqual(['RedPacketBot /go XYZ']);
  });

  it('action 9 without a deep link: start_param (default {keyword}) to bot_username, else a clear failure', async () => {
    expect((await run([{ action: 9, bot_username: 'RedPacketBot' }], '口令 红包', '红包')).success).toBe(true);
    expect((await run([{ action: 9, bot_username: 'OtherBot', start_param: 'ref_{keyword}' }], 'x', 'k1')).success).toBe(true);
    expect(started).toEqual(['RedPacketBot /start 红包', 'OtherBot /start ref_k1']);
    const failed = await run([{ action: 9 }], 'no link here');
    expect(failed).toMatchObject({ success: false, failure_category: 'target_not_found' });
  });

  it('action 1: the capture of send_text_search_regex, else text, else nothing; ai_reply sends the model answer to the message', async () => {
    await run([{ action: 1, send_text_search_regex: 'code[:：]\\s*([\\p{L}\\p{N}_]+)', text: 'fallback' }], 'the code：红包42 now');
    await run([{ action: 1, send_text_search_regex: 'code[:：]\\s*(\\w+)', text: 'fallback' }], 'nothing to see');
    const nothing = await run([{ action: 1, send_text_search_regex: 'code: (\\w+)' }], 'nothing to see');
    expect(nothing.success).toBe(true);
    expect(nothing.flow_log.map((line) => line.message)).toContain('nothing to send: no text, no regex match and no model reply');
    await run([{ action: 1, ai_reply: true, ai_prompt: 'Answer briefly.' }], 'what time is it?');
    expect(sentTexts()).toEqual(['红包42', 'fallback', 'model reply']);
    expect(questions.at(-1)).toEqual({ instruction: 'Answer briefly.', text: 'what time is it?' });
    const noGroup = await run([{ action: 1, send_text_search_regex: 'code' }], 'code');
    expect(noGroup).toMatchObject({ success: false, error: expect.stringContaining('no capture group') });
  });
});

/** The runner names a failure from the class of the error the account port throws, never from an HTTP status. */
describe('ActionRunner failure category of an account that cannot act', () => {
  const ai: AiClient = { answer: async () => 'unused' };
  const runWith = (failure: Error) => {
    const sessions = {
      sessionFor: () => {
        throw failure;
      },
      markSessionInvalid: () => undefined,
    } as unknown as AccountSessionsService;
    return new ActionRunner(sessions, ai, DEFAULT_RUN_TIMINGS).runActions('alice', { chat_id: 1 }, [{ action: 1, text: 'hi' }], {});
  };

  it('NeedsRelogin is session_invalid; AccountNotFound is strong_failure', async () => {
    expect(await runWith(new NeedsRelogin('alice', 'it has no stored session'))).toMatchObject({
      success: false,
      completed: 0,
      failure_category: 'session_invalid',
      error: expect.stringContaining('needs_relogin'),
    });
    expect(await runWith(new AccountNotFound('alice'))).toMatchObject({ success: false, failure_category: 'strong_failure', error: 'Account alice does not exist' });
  });

  it('another error with the same HTTP status is not mistaken for either', async () => {
    expect(await runWith(new ConflictException('something else'))).toMatchObject({ success: false, failure_category: 'unknown' });
    expect(await runWith(new PanelError('task_busy', 'busy'))).toMatchObject({ success: false, failure_category: 'unknown' });
    expect(await runWith(new NotFoundException('gone'))).toMatchObject({ success: false, failure_category: 'unknown' });
  });
});
