import type { TaskAction } from '../sign-tasks/sign-task.types';
import type { TelegramIncomingMessage } from '../telegram/telegram-gateway';
import { activeHoursOf, isWithinActiveHours, minuteOfDay } from './active-hours';
import { extractBotDeepLinks, HitVariables, messageUrl, renderTemplate, usesTemplateVariables } from './hit-template';
import { CompiledListenRule, MessageView } from './listen-rule';

const NOON_UTC = Date.UTC(2025, 0, 15, 12, 0, 0) / 1000;

function message(text: string, extra: Partial<TelegramIncomingMessage> = {}): TelegramIncomingMessage {
  return {
    id: 10,
    chatId: '-1001',
    senderId: '42',
    senderName: 'Alice Smith',
    senderUsername: 'alice',
    out: false,
    date: NOON_UTC,
    text,
    buttons: [],
    hasMedia: false,
    chatTitle: 'Deals',
    chatType: 'group',
    event: 'new',
    ...extra,
  };
}

function rule(action: Partial<TaskAction>, extra: { messageThreadId?: number } = {}): CompiledListenRule {
  return new CompiledListenRule({ accountName: 'acc', taskName: 'watch', ruleIndex: 0, chatId: -1001, action: { action: 8, ...action }, ...extra });
}

function matchOf(compiled: CompiledListenRule, msg: TelegramIncomingMessage, timeZone = 'UTC'): string | undefined {
  return compiled.appliesToChat(msg) ? compiled.match(new MessageView(msg), timeZone)?.keyword : undefined;
}

describe('CompiledListenRule', () => {
  it('contains: reports the configured keyword, case-insensitive by default', () => {
    const compiled = rule({ keywords: ['Free Gift', 'coupon'] });
    expect(matchOf(compiled, message('get your FREE GIFT now'))).toBe('Free Gift');
    expect(matchOf(compiled, message('nothing here'))).toBeUndefined();
  });

  it('contains with ignore_case false respects case', () => {
    const compiled = rule({ keywords: ['Coupon'], ignore_case: false });
    expect(matchOf(compiled, message('a coupon'))).toBeUndefined();
    expect(matchOf(compiled, message('a Coupon'))).toBe('Coupon');
  });

  it('exact: the whole trimmed text must equal a keyword', () => {
    const compiled = rule({ keywords: ['go'], match_mode: 'exact' });
    expect(matchOf(compiled, message('  GO '))).toBe('go');
    expect(matchOf(compiled, message('go now'))).toBeUndefined();
  });

  it('regex: reports the first non-empty group, else the whole match', () => {
    const compiled = rule({ keywords: ['code:\\s*(\\w+)', 'promo\\d+'], match_mode: 'regex' });
    expect(matchOf(compiled, message('Your CODE: abc123 expires'))).toBe('abc123');
    expect(matchOf(compiled, message('try promo42'))).toBe('promo42');
    expect(matchOf(compiled, message('no luck'))).toBeUndefined();
  });

  it('regex: an invalid expression is skipped and reported, never thrown when matching', () => {
    const compiled = rule({ keywords: ['(unclosed', 'ok'], match_mode: 'regex' });
    expect(compiled.problems.join()).toContain('regular expression "(unclosed" is not used');
    expect(matchOf(compiled, message('ok then'))).toBe('ok');
  });

  it('regex: runs in linear time, so a catastrophic pattern on a long hostile message finishes at once', () => {
    const compiled = rule({ keywords: ['(a+)+$', '(x|x)*y'], match_mode: 'regex' });
    expect(compiled.problems).toEqual([]);
    // CPU time, not wall time: a starved machine stretches the one, not the other.
    const started = process.cpuUsage();
    expect(matchOf(compiled, message(`${'a'.repeat(50_000)}!`))).toBeUndefined();
    expect(matchOf(compiled, message('x'.repeat(50_000)))).toBeUndefined();
    // Backtracking engines need longer than the age of the universe for these; RE2 a few milliseconds.
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1_000);
    expect(matchOf(compiled, message('aaaa'))).toBe('aaaa');
  });

  it('regex: a stored pattern RE2 cannot run (lookahead, backreference) is reported on the rule and skipped, the rest still matches', () => {
    const compiled = rule({ keywords: ['(?=secret)\\w+', '(a)\\1', 'plain (\\d+)'], match_mode: 'regex' });
    expect(compiled.problems).toEqual([
      expect.stringMatching(/^regular expression "\(\?=secret\)\\\\w\+" is not used: invalid or unsupported Perl syntax: `\(\?=`\. .*no lookaround/),
      expect.stringMatching(/^regular expression "\(a\)\\\\1" is not used: invalid escape sequence: `\\1`/),
    ]);
    expect(matchOf(compiled, message('plain 42'))).toBe('42');
  });

  it('regex: JavaScript \\u escapes and ignore_case work under RE2', () => {
    const compiled = rule({ keywords: ['([\\u4e00-\\u9fa5]+)红包', 'PROMO\\d+'], match_mode: 'regex' });
    expect(matchOf(compiled, message('发了新年红包'))).toBe('发了新年');
    expect(matchOf(compiled, message('promo7'))).toBe('promo7');
    expect(matchOf(rule({ keywords: ['PROMO\\d+'], match_mode: 'regex', ignore_case: false }), message('promo7'))).toBeUndefined();
  });

  it('all: every keyword must appear', () => {
    const compiled = rule({ keywords: ['red', 'packet'], match_mode: 'all' });
    expect(matchOf(compiled, message('a PACKET, red'))).toBe('red, packet');
    expect(matchOf(compiled, message('red only'))).toBeUndefined();
  });

  it('ignore_self (default true) skips what the account sent itself; false keeps it', () => {
    expect(matchOf(rule({ keywords: ['x'] }), message('x', { out: true }))).toBeUndefined();
    expect(matchOf(rule({ keywords: ['x'], ignore_self: false }), message('x', { out: true }))).toBe('x');
  });

  it('sender filter accepts ids, @usernames and display names', () => {
    expect(matchOf(rule({ keywords: ['x'], sender_filter: '42' }), message('x'))).toBe('x');
    expect(matchOf(rule({ keywords: ['x'], sender_filter: '@ALICE' }), message('x'))).toBe('x');
    expect(matchOf(rule({ keywords: ['x'], sender_filter: 'alice smith, bob' }), message('x'))).toBe('x');
    expect(matchOf(rule({ keywords: ['x'], sender_filter: '@bob, 7' }), message('x'))).toBeUndefined();
  });

  it("sender filter 'me' takes the account's own messages (tg-signer's from_user_ids \"me\"), with ignore_self off", () => {
    const own = message('x', { out: true });
    expect(matchOf(rule({ keywords: ['x'], sender_filter: 'me', ignore_self: false }), own)).toBe('x');
    expect(matchOf(rule({ keywords: ['x'], sender_filter: 'me', ignore_self: false }), message('x'))).toBeUndefined();
    expect(matchOf(rule({ keywords: ['x'], sender_filter: 'me,42', ignore_self: false }), message('x'))).toBe('x');
  });

  it('only messages of its chat and topic', () => {
    const compiled = rule({ keywords: ['x'] }, { messageThreadId: 5 });
    expect(matchOf(compiled, message('x', { threadId: 5 }))).toBe('x');
    expect(matchOf(compiled, message('x', { threadId: 6 }))).toBeUndefined();
    expect(matchOf(compiled, message('x', { chatId: '-1002', threadId: 5 }))).toBeUndefined();
  });

  it('active hours cross midnight in the configured time zone', () => {
    const compiled = rule({ keywords: ['x'], active_time_start: '22:00', active_time_end: '06:00' });
    // 12:00 UTC is 21:00 in Tokyo (outside) and 02:00 in Kiritimati (+14, inside).
    expect(matchOf(compiled, message('x'), 'UTC')).toBeUndefined();
    expect(matchOf(compiled, message('x'), 'Asia/Tokyo')).toBeUndefined();
    expect(matchOf(compiled, message('x'), 'Pacific/Kiritimati')).toBe('x');
    expect(matchOf(compiled, message('x', { date: Date.UTC(2025, 0, 15, 3, 0) / 1000 }), 'UTC')).toBe('x');
  });
});

describe('active hours', () => {
  it('handles plain windows, crossing windows, the whole day and bad input', () => {
    const at = (h: number, m: number) => new Date(Date.UTC(2025, 5, 1, h, m));
    expect(isWithinActiveHours(activeHoursOf('08:00', '18:00'), at(8, 0), 'UTC')).toBe(true);
    expect(isWithinActiveHours(activeHoursOf('08:00', '18:00'), at(18, 0), 'UTC')).toBe(false);
    expect(isWithinActiveHours(activeHoursOf('23:30', '00:30'), at(0, 15), 'UTC')).toBe(true);
    expect(isWithinActiveHours(activeHoursOf('23:30', '00:30'), at(1, 0), 'UTC')).toBe(false);
    expect(isWithinActiveHours(activeHoursOf('09:00', '09:00'), at(3, 0), 'UTC')).toBe(true);
    expect(activeHoursOf('25:00', '09:00')).toBeUndefined();
    expect(minuteOfDay(at(23, 59), 'Europe/Berlin')).toBe(1 * 60 + 59); // CEST is +2 in June
  });
});

describe('hit templates', () => {
  const variables: HitVariables = {
    keyword: 'gift',
    message: 'a gift & more',
    text: 'a gift & more',
    sender: '@alice',
    chat_id: '-1001',
    chat_title: 'Deals',
    message_id: '10',
    url: 'https://t.me/c/1/10',
    task_name: 'watch',
    account_name: 'acc',
  };

  it('replaces known variables, keeps unknown braces, and can encode for URLs', () => {
    expect(renderTemplate('{keyword} in {chat_title} {"json": {unknown}}', variables)).toBe('gift in Deals {"json": {unknown}}');
    expect(renderTemplate('https://x/?q={message}', variables, encodeURIComponent)).toBe('https://x/?q=a%20gift%20%26%20more');
    expect(usesTemplateVariables('https://x/{text}')).toBe(true);
    expect(usesTemplateVariables('https://x/{nothing}')).toBe(false);
  });

  it('builds message links and extracts bot deep links without repeats', () => {
    expect(messageUrl('-1001234', 7)).toBe('https://t.me/c/1234/7');
    expect(messageUrl('-1001234', 7, '@deals')).toBe('https://t.me/deals/7');
    expect(messageUrl('12345', 7)).toBe('');
    expect(extractBotDeepLinks('go https://t.me/GiftBot?start=abc_1 and t.me/giftbot?start=abc_1 or telegram.me/OtherBot?start=z')).toEqual([
      { bot: 'GiftBot', start: 'abc_1' },
      { bot: 'OtherBot', start: 'z' },
    ]);
  });
});
