import { messageForEvent } from '../notifications/notification-message';
import { pushMessageOf } from '../notification-channels/channel-senders';
import { eventFacts } from '../notification-rules/event-facts';
import { checkTemplate, defaultTemplate, renderTemplate, renderTitle, templateFor, TemplateProblem, templateView, TITLE_LIMIT } from './message-template';

const event = {
  id: 7,
  kind: 'issues.opened',
  category: 'issue' as const,
  repository: 'acme/api',
  title: 'Crash when <b>x</b> & *y* _z_',
  bodyText: 'Stack: a < b',
  htmlUrl: 'https://github.com/acme/api/issues/7',
  actor: 'alice',
  fingerprint: 'f',
  occurredAt: new Date('2026-01-02T03:04:05Z'),
  details: { labels: ['bug', 'p1'], author: 'alice', branch: null },
};
const view = templateView(event, eventFacts(event));

describe('message templates', () => {
  it('the default templates render exactly the default messages', () => {
    const message = messageForEvent(event);
    expect(renderTemplate(defaultTemplate('telegram'), view, 'telegram').text).toBe(message.bodyHtml);
    expect(renderTemplate(defaultTemplate('http_webhook'), view, 'http_webhook').text).toBe(message.bodyPlain);
    expect(renderTemplate(defaultTemplate('discord'), view, 'gotify').text).toBe(pushMessageOf(message).body);
    const bare = templateView({ ...event, bodyText: '', actor: null }, eventFacts({ ...event, actor: null }));
    expect(renderTemplate(defaultTemplate('telegram'), bare, 'telegram').text).toBe(messageForEvent({ ...event, bodyText: '', actor: null }).bodyHtml);
  });

  it('escapes values for each format and leaves the template\'s own markup', () => {
    const template = '<b>{{title}}</b> {{#labels}}#{{.}} {{/labels}}';
    expect(renderTemplate(template, view, 'telegram').text).toBe('<b>Crash when &lt;b&gt;x&lt;/b&gt; &amp; *y* _z_</b> #bug #p1');
    expect(renderTemplate('**{{title}}**', view, 'discord').text).toBe('**Crash when \\<b\\>x\\</b\\> & \\*y\\* \\_z\\_**');
    expect(renderTemplate('*{{title}}*', view, 'slack').text).toBe('*Crash when &lt;b&gt;x&lt;/b&gt; &amp; *y* _z_*');
    expect(renderTemplate('{{title}}', view, 'email').text).toBe('Crash when <b>x</b> & *y* _z_');
  });

  it('keeps each channel\'s length limit, closing Telegram tags it cuts through', () => {
    const long = templateView({ ...event, bodyText: 'x'.repeat(10_000) }, eventFacts(event));
    const telegram = renderTemplate('<b>{{body}}</b>', long, 'telegram');
    expect([telegram.truncated, telegram.text.length <= 4000, telegram.text.endsWith('…</b>')]).toEqual([true, true, true]);
    const discord = renderTemplate('{{body}}', long, 'discord');
    expect([discord.truncated, [...discord.text].length]).toEqual([true, discord.limit]);
  });

  it('refuses what would skip escaping, unknown values, partials and broken Telegram markup', () => {
    const refused = (template: string, format: Parameters<typeof checkTemplate>[1] = 'telegram_html') => {
      try {
        checkTemplate(template, format);
        return 'accepted';
      } catch (error) {
        return error instanceof TemplateProblem ? error.message : 'threw something else';
      }
    };
    expect(refused('{{{title}}}')).toContain('skip escaping');
    expect(refused('{{&title}}')).toContain('skip escaping');
    expect(refused('{{secret}}')).toContain('is not a value templates know');
    expect(refused('{{#labels}}{{nope}}{{/labels}}')).toContain('{{nope}}');
    expect(refused('{{>other}}')).toContain('partials');
    expect(refused('{{=<% %>=}}')).toContain('delimiters');
    expect(refused('{{#labels}}')).toContain('does not parse');
    expect(refused('<script>{{title}}</script>')).toContain('<script>');
    expect(refused('<b>{{title}}')).toContain('never closed');
    expect(refused('<b>{{title}}</i>')).toContain('</i>');
    expect(refused('<b>{{title}}', 'plain')).toBe('accepted');
    expect(refused('   ')).toContain('empty');
    expect(refused('x'.repeat(4001))).toContain('longer');
    expect(refused('<a href="{{url}}">{{heading}}</a>{{^labels}} (no labels){{/labels}}{{! a comment }}')).toBe('accepted');
  });

  it('names the rule each refusal breaks, so the console can say it in the person\'s language', () => {
    const rule = (template: string, part: 'message' | 'title' = 'message') => {
      try {
        checkTemplate(template, 'telegram_html', part);
        return 'accepted';
      } catch (error) {
        return error instanceof TemplateProblem ? [error.rule, error.max] : 'threw something else';
      }
    };
    expect(rule('{{{title}}}')).toEqual(['template_unescaped', undefined]);
    expect(rule('{{nope}}')).toEqual(['template_unknown_value', undefined]);
    expect(rule('{{#labels}}')).toEqual(['template_syntax', undefined]);
    expect(rule('<i>{{title}}')).toEqual(['template_unclosed', undefined]);
    expect(rule('x'.repeat(4001))).toEqual(['template_too_long', 4000]);
    expect(rule('x'.repeat(501), 'title')).toEqual(['template_too_long', 500]);
    // A title is plain text: markup in it is text, not a Telegram tag to close.
    expect(rule('<b>{{title}}', 'title')).toBe('accepted');
  });

  it('renders a title as one plain line, cut to the title limit', () => {
    expect(renderTitle('{{repository}}:\n  {{title}}', view)).toEqual({ format: 'plain', text: 'acme/api: Crash when <b>x</b> & *y* _z_', truncated: false, limit: TITLE_LIMIT });
    const long = renderTitle('{{body}}', templateView({ ...event, bodyText: 'y'.repeat(600) }, eventFacts(event)));
    expect([long.truncated, [...long.text].length]).toEqual([true, TITLE_LIMIT]);
  });

  it('picks the most specific template of an owner: the kind, then its family, then *', () => {
    const all = [{ eventKind: '*' }, { eventKind: 'issues' }, { eventKind: 'issues.closed' }];
    expect(templateFor(all, 'issues.closed')?.eventKind).toBe('issues.closed');
    expect(templateFor(all, 'issues.opened')?.eventKind).toBe('issues');
    expect(templateFor(all, 'release.published')?.eventKind).toBe('*');
    expect(templateFor([{ eventKind: 'issues' }], 'release.published')).toBeUndefined();
  });
});
