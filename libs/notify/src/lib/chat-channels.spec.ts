import { LocalWebhookReceiver } from '@shared/testing';
import { DISCORD_CONTENT_LIMIT, DiscordWebhookSender, GotifySender, SlackWebhookSender, TeamsWorkflowSender } from './push-channels';

describe('chat and push channels against a local receiver (the exact body each service documents)', () => {
  const receiver = new LocalWebhookReceiver();
  const message = { title: 'Issue #7 opened: <b> & @everyone', body: 'Crash in *parser* when `x < 1`', url: 'https://github.com/acme/api/issues/7' };

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => {
    receiver.clearRequests();
    receiver.setDefaultReply({ status: 200, body: 'ok' });
  });

  it('Discord: content with markdown escaped, no mentions, 204 accepted; 429 retryable with its delay; 404 permanent', async () => {
    receiver.replyNext({ status: 204 }, { status: 429, headers: { 'retry-after': '3' }, body: '{"retry_after":3}' }, { status: 404, body: '{"message":"Unknown Webhook"}' });
    const discord = new DiscordWebhookSender(receiver.urlFor('/api/webhooks/1/token'));
    expect(await discord.send(message)).toMatchObject({ channel: 'discord', outcome: 'sent', status: 204 });
    const request = receiver.requests[0];
    expect([request?.method, request?.path, request?.headers['content-type']]).toEqual(['POST', '/api/webhooks/1/token', 'application/json; charset=utf-8']);
    expect(JSON.parse(request?.bodyText ?? '')).toEqual({
      content: '**Issue \\#7 opened: \\<b\\> & \\@everyone**\nCrash in \\*parser\\* when \\`x \\< 1\\`\n<https://github.com/acme/api/issues/7>',
      allowed_mentions: { parse: [] },
    });
    expect(await discord.send(message)).toMatchObject({ outcome: 'retryable', status: 429, errorCode: 'rate_limited', retryAfterSeconds: 3 });
    expect(await discord.send(message)).toMatchObject({ outcome: 'permanent', status: 404 });
  });

  it('Discord: keeps a long message within 2,000 characters', async () => {
    await new DiscordWebhookSender(receiver.urlFor('/d')).send({ title: 't', body: 'x'.repeat(5000), url: 'https://github.com/a/b' });
    const content = (JSON.parse(receiver.requests[0]?.bodyText ?? '') as { content: string }).content;
    expect([...content].length).toBeLessThanOrEqual(DISCORD_CONTENT_LIMIT);
    expect(content.endsWith('…\n<https://github.com/a/b>')).toBe(true);
  });

  it('Discord and Slack: a formatted body (a rendered template) is sent as written; the title is still escaped', async () => {
    await new DiscordWebhookSender(receiver.urlFor('/d')).send({ title: 'a *b*', body: '**bold** \\*x\\*', formatted: true });
    await new SlackWebhookSender(receiver.urlFor('/s')).send({ title: 'a <b>', body: '*bold* &lt;x&gt;', formatted: true });
    expect((JSON.parse(receiver.requests[0]?.bodyText ?? '') as { content: string }).content).toBe('**a \\*b\\***\n**bold** \\*x\\*');
    expect((JSON.parse(receiver.requests[1]?.bodyText ?? '') as { text: string }).text).toBe('*a &lt;b&gt;*\n*bold* &lt;x&gt;');
  });

  it('Slack: text with &, < and > escaped and a link; a 400 invalid_payload is permanent', async () => {
    receiver.replyNext({ status: 200, body: 'ok' }, { status: 400, body: 'invalid_payload' });
    const slack = new SlackWebhookSender(receiver.urlFor('/services/T/B/X'));
    expect(await slack.send(message)).toMatchObject({ channel: 'slack', outcome: 'sent' });
    expect(JSON.parse(receiver.requests[0]?.bodyText ?? '')).toEqual({
      text: '*Issue #7 opened: &lt;b&gt; &amp; @everyone*\nCrash in *parser* when `x &lt; 1`\n<https://github.com/acme/api/issues/7|View on GitHub>',
      unfurl_links: false,
      unfurl_media: false,
    });
    expect(await slack.send(message)).toMatchObject({ outcome: 'permanent', status: 400, responseSnippet: 'invalid_payload' });
  });

  it('Slack and Teams: the link shows the words the caller gives (panel-api links to Telegram, not GitHub)', async () => {
    const link = { title: 'Keyword hit', body: 'text', url: 'https://t.me/c/1/2', linkLabel: 'Open in <Telegram>|' };
    await new SlackWebhookSender(receiver.urlFor('/s')).send(link);
    await new TeamsWorkflowSender(receiver.urlFor('/t')).send(link);
    expect((JSON.parse(receiver.requests[0]?.bodyText ?? '') as { text: string }).text).toBe('*Keyword hit*\ntext\n<https://t.me/c/1/2|Open in Telegram>');
    const card = JSON.parse(receiver.requests[1]?.bodyText ?? '') as { attachments: Array<{ content: { actions: unknown[] } }> };
    expect(card.attachments[0].content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in <Telegram>|', url: 'https://t.me/c/1/2' }]);
  });

  it('Teams: a message with one Adaptive Card (title, text, a link action); 202 accepted', async () => {
    receiver.replyNext({ status: 202 });
    expect(await new TeamsWorkflowSender(receiver.urlFor('/workflows/abc')).send(message)).toMatchObject({ channel: 'teams', outcome: 'sent', status: 202 });
    expect(JSON.parse(receiver.requests[0]?.bodyText ?? '')).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: message.title, weight: 'Bolder', size: 'Medium', wrap: true },
              { type: 'TextBlock', text: message.body, wrap: true },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'View on GitHub', url: message.url }],
          },
        },
      ],
    });
  });

  it('Gotify: POST <server>/message with X-Gotify-Key and {title, message, priority, extras}; 401 permanent', async () => {
    receiver.replyNext({ status: 200, body: '{"id":1}' }, { status: 401, body: '{"error":"Unauthorized"}' });
    const gotify = new GotifySender(receiver.urlFor('/gotify/'), 'AbCdEf123', { priority: 8 });
    expect(await gotify.send(message)).toMatchObject({ channel: 'gotify', outcome: 'sent' });
    const request = receiver.requests[0];
    expect([request?.path, request?.headers['x-gotify-key']]).toEqual(['/gotify/message', 'AbCdEf123']);
    expect(JSON.parse(request?.bodyText ?? '')).toEqual({
      title: message.title,
      message: message.body,
      priority: 8,
      extras: { 'client::notification': { click: { url: message.url } } },
    });
    expect(await gotify.send(message)).toMatchObject({ outcome: 'permanent', status: 401 });
  });

  it('refuses private targets under the address guard, and non-http URLs, without sending', async () => {
    const guarded = { addressGuard: { allowPrivate: false } };
    expect(await new SlackWebhookSender(receiver.urlFor('/s'), guarded).send(message)).toMatchObject({ outcome: 'permanent' });
    expect(await new DiscordWebhookSender('file:///etc/passwd').send(message)).toMatchObject({ outcome: 'permanent', errorCode: 'invalid_url' });
    expect(receiver.requests).toHaveLength(0);
    expect(await new GotifySender(receiver.url, 'k', { addressGuard: { allowPrivate: true } }).send(message)).toMatchObject({ outcome: 'sent' });
  });
});
