import { LocalTelegramBotApi, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { INBOUND_SECRET, repositoryPayload, sendDelivery } from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const OPS_CHAT = '-100333';

interface Template {
  id: string;
  channel_id: string | null;
  rule_id: string | null;
  part: 'message' | 'title';
  event_kind: string;
  body: string;
}

interface Preview {
  event: { id: number; kind: string; title: string } | null;
  channel_kind: string;
  format: string;
  limit: number;
  whole_message: boolean;
  template: string;
  default_template: string;
  rendered: string;
  truncated: boolean;
}

interface ErrorBody {
  error_code: string;
  message: string;
  details?: { field?: string; fields?: Array<{ field: string; rule: string; max?: number; message: string }> };
}

/** HH:MM of an instant in UTC. */
const utcTime = (instant: Date) => instant.toISOString().slice(11, 16);
const repoId = (fullName: string) => Math.abs([...fullName].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, 11));

function issue(fullName: string, number: number, title: string, author: string, labels: string[]): Record<string, unknown> {
  return {
    action: 'opened',
    repository: repositoryPayload(fullName, repoId(fullName)),
    issue: {
      number,
      title,
      state: 'open',
      html_url: `https://github.com/${fullName}/issues/${number}`,
      user: { login: author },
      labels: labels.map((name, index) => ({ id: index + 1, name })),
      updated_at: new Date().toISOString(),
    },
    sender: { login: author },
  };
}

function pullRequest(fullName: string, number: number, author: string, labels: string[]): Record<string, unknown> {
  return {
    action: 'opened',
    repository: repositoryPayload(fullName, repoId(fullName)),
    pull_request: {
      number,
      title: `Bump lodash ${number}`,
      state: 'open',
      merged: false,
      draft: false,
      html_url: `https://github.com/${fullName}/pull/${number}`,
      user: { login: author },
      labels: labels.map((name, index) => ({ id: index + 1, name })),
      base: { ref: 'main' },
      updated_at: new Date().toISOString(),
    },
    sender: { login: author },
  };
}

function workflowRun(fullName: string, id: number, conclusion: string, branch: string): Record<string, unknown> {
  return {
    action: 'completed',
    repository: repositoryPayload(fullName, repoId(fullName)),
    workflow_run: {
      id,
      name: 'CI',
      head_branch: branch,
      head_sha: `sha${id}`,
      event: 'push',
      status: 'completed',
      conclusion,
      run_number: id,
      run_attempt: 1,
      html_url: `https://github.com/${fullName}/actions/runs/${id}`,
      updated_at: new Date().toISOString(),
    },
    workflow: { name: 'CI' },
    sender: { login: 'octocat' },
  };
}

function release(fullName: string, id: number, tag: string): Record<string, unknown> {
  return {
    action: 'published',
    repository: repositoryPayload(fullName, repoId(fullName)),
    release: { id, tag_name: tag, name: `Version ${tag}`, body: 'Fixes', prerelease: false, html_url: `https://github.com/${fullName}/releases/tag/${tag}`, published_at: new Date().toISOString() },
    sender: { login: 'octocat' },
  };
}

describe('message templates: stored per channel and rule, previewed on real events, rendered into exactly the routed messages', () => {
  const telegram = new LocalTelegramBotApi();
  const receiver = new LocalWebhookReceiver();
  let monitor: RunningMonitor;
  let session: AdminSession;
  let ops: string;
  let discord: string;
  let slack: string;
  let hook: string;
  const rules: Record<string, string> = {};
  const templates: Record<string, Template> = {};

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers = adminHeaders(session)) =>
    requestJson<T>(monitor.url, path, { method, headers, body });
  const eventsTotal = async () => (await call<{ total: number }>('GET', '/api/v1/events?per_page=1')).body.total;
  const outboxTotal = async (state: string) => (await call<{ total: number }>('GET', `/api/v1/notifications/outbox?state=${state}&per_page=1`)).body.total;
  const deliver = async (event: string, payload: Record<string, unknown>) => {
    const before = await eventsTotal();
    const response = await sendDelivery(monitor.url, event, payload, { deliveryId: randomUUID(), secret: INBOUND_SECRET });
    expect(response.status).toBe(202);
    await waitFor(async () => (await eventsTotal()) > before, 15_000);
  };
  const saveTemplate = async (key: string, body: Record<string, unknown>) => {
    const response = await call<Template>('PUT', '/api/v1/notification-templates', body);
    expect(response.status).toBe(200);
    templates[key] = response.body;
  };
  const discordContents = () => receiver.requestsTo('/api/webhooks/77/discord-token-abcdef').map((request) => (JSON.parse(request.bodyText) as { content: string }).content);
  const slackTexts = () => receiver.requestsTo('/services/T1/B1/slack-secret').map((request) => (JSON.parse(request.bodyText) as { text: string }).text);
  const hookBodies = () => receiver.requestsTo('/hook').map((request) => JSON.parse(request.bodyText) as { title: string; body_plain: string; body_text: string });

  beforeAll(async () => {
    await Promise.all([telegram.start(), receiver.start()]);
    monitor = await startMonitor({
      databasePrefix: 'h5_templates',
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
      },
    });
    session = await loginAdmin(monitor);
    expect((await call('PUT', '/api/v1/system/settings', { time_zone: 'UTC' })).status).toBe(200);
    const channel = async (body: Record<string, unknown>) => {
      const response = await call<{ id: string }>('POST', '/api/v1/notification-channels', { allow_private: true, ...body });
      expect(response.status).toBe(201);
      return response.body.id;
    };
    ops = await channel({ kind: 'telegram', name: 'Ops forum', chat_id: OPS_CHAT, secret: telegram.token, message_thread_id: 5, allow_private: false });
    discord = await channel({ kind: 'discord', name: 'Discord', url: receiver.urlFor('/api/webhooks/77/discord-token-abcdef') });
    slack = await channel({ kind: 'slack', name: 'Slack', url: receiver.urlFor('/services/T1/B1/slack-secret') });
    hook = await channel({ kind: 'http_webhook', name: 'Hook', url: receiver.urlFor('/hook') });
  }, 60_000);

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([telegram.close(), receiver.close()]);
  });

  it('refuses template requests without a session, and templates that are malformed or would skip escaping, changing nothing', async () => {
    expect((await requestJson(monitor.url, '/api/v1/notification-templates')).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/notification-templates', { method: 'PUT', body: { channel_id: ops, event_kind: '*', body: 'x' } })).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/notification-templates/preview', { method: 'POST', body: { event_kind: '*' } })).status).toBe(401);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ channel_id: ops, event_kind: 'issues', body: '{{{title}}}' }, 'escaping'],
      [{ channel_id: ops, event_kind: 'issues', body: '{{token}}' }, '{{token}}'],
      [{ channel_id: ops, event_kind: 'issues', body: '<script>{{title}}</script>' }, '<script>'],
      [{ channel_id: ops, event_kind: 'issues', body: '<b>{{title}}' }, 'never closed'],
      [{ channel_id: ops, event_kind: 'issues', body: '{{#labels}}' }, 'does not parse'],
      [{ channel_id: ops, event_kind: 'issues', body: '{{>partial}}' }, 'partials'],
      [{ channel_id: ops, event_kind: 'Issues!', body: 'x' }, 'event_kind'],
      [{ channel_id: ops, event_kind: 'issues', body: '' }, 'body'],
      [{ channel_id: ops, event_kind: 'issues', body: 'x'.repeat(4001) }, 'body'],
      [{ channel_id: ops, rule_id: randomUUID(), event_kind: 'issues', body: 'x' }, 'channel_id'],
      [{ event_kind: 'issues', body: 'x' }, 'channel_id'],
      [{ channel_id: randomUUID(), event_kind: 'issues', body: 'x' }, 'channel_id'],
      [{ rule_id: randomUUID(), event_kind: 'issues', body: 'x' }, 'rule_id'],
      [{ channel_id: 'nope', event_kind: 'issues', body: 'x' }, 'channel_id'],
      [{ channel_id: ops, event_kind: 'issues', body: 'x', extra: 1 }, 'extra'],
    ];
    for (const [body, mentions] of bad) {
      const response = await call<ErrorBody>('PUT', '/api/v1/notification-templates', body);
      expect({ body, status: response.status, code: response.body.error_code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(`${response.body.message} ${response.body.details?.field ?? ''}`).toContain(mentions);
    }
    // Each template refusal names its field and a rule the console translates (the message is the English sentence).
    const rules: Array<[Record<string, unknown>, string, number?]> = [
      [{ channel_id: ops, event_kind: 'issues', body: '{{{title}}}' }, 'template_unescaped'],
      [{ channel_id: ops, event_kind: 'issues', body: '{{token}}' }, 'template_unknown_value'],
      [{ channel_id: ops, event_kind: 'issues', body: '<script>{{title}}</script>' }, 'template_tag'],
      [{ channel_id: ops, event_kind: 'issues', body: '<b>{{title}}' }, 'template_unclosed'],
      [{ channel_id: ops, event_kind: 'issues', body: '{{#labels}}' }, 'template_syntax'],
      [{ channel_id: ops, event_kind: 'issues', body: '   ' }, 'template_empty'],
      [{ channel_id: discord, part: 'title', event_kind: 'issues', body: 'x'.repeat(501) }, 'template_too_long', 500],
    ];
    for (const [body, rule, max] of rules) {
      const response = await call<ErrorBody>('PUT', '/api/v1/notification-templates', body);
      expect({ status: response.status, fields: response.body.details?.fields }).toEqual({
        status: 400,
        fields: [{ field: 'body', rule, ...(max === undefined ? {} : { max }), message: response.body.message }],
      });
    }
    // Telegram and the signed webhook have no title of their own to template.
    const untitled = await call<ErrorBody>('PUT', '/api/v1/notification-templates', { channel_id: ops, part: 'title', event_kind: 'issues', body: '{{title}}' });
    expect([untitled.status, untitled.body.details?.fields?.[0]?.field, untitled.body.details?.fields?.[0]?.rule]).toEqual([400, 'part', 'template_no_title']);
    expect((await call<ErrorBody>('PUT', '/api/v1/notification-templates', { channel_id: hook, part: 'subject', event_kind: 'issues', body: 'x' })).status).toBe(400);
    // Markup Telegram refuses is fine where the text is plain.
    expect((await call('PUT', '/api/v1/notification-templates', { channel_id: hook, event_kind: 'release', body: '<b>{{title}}' })).status).toBe(200);
    const listed = await call<{ items: Template[]; total: number }>('GET', '/api/v1/notification-templates');
    expect(listed.body.items.map((item) => [item.channel_id, item.event_kind])).toEqual([[hook, 'release']]);
    expect((await call('DELETE', `/api/v1/notification-templates/${listed.body.items[0].id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/v1/notification-templates/${listed.body.items[0].id}`)).status).toBe(404);
    expect((await call('DELETE', '/api/v1/notification-templates/not-an-id')).status).toBe(400);
    expect((await call<{ total: number }>('GET', '/api/v1/notification-templates')).body.total).toBe(0);
    expect((await call('GET', '/api/v1/notification-templates?channel_id=nope')).status).toBe(400);
  });

  it('previews the default message on an example event while none of the kind was recorded', async () => {
    const preview = await call<Preview>('POST', '/api/v1/notification-templates/preview', { channel_id: ops, event_kind: 'issues' });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ event: null, channel_kind: 'telegram', format: 'telegram_html', limit: 4000, whole_message: true, truncated: false });
    expect(preview.body.template).toBe(preview.body.default_template);
    expect(preview.body.rendered).toBe('<b>[octo-org/example] Example issues.opened event</b>\nWhat the event says appears here.\nby octocat');
    expect((await call<ErrorBody>('POST', '/api/v1/notification-templates/preview', { channel_id: ops, event_kind: 'issues', body: '{{{title}}}' })).status).toBe(400);
    expect((await call<ErrorBody>('POST', '/api/v1/notification-templates/preview', { event_kind: 'issues', event_id: 999999 })).status).toBe(404);
    expect((await call<ErrorBody>('POST', '/api/v1/notification-templates/preview', { event_kind: 'issues', channel_kind: 'pigeon' })).status).toBe(400);
    // A digest's example is a digest, and a title previews as one plain line.
    const digest = await call<Preview & { part: string }>('POST', '/api/v1/notification-templates/preview', { channel_kind: 'gotify', part: 'title', event_kind: 'digest', body: '📰 {{title}}\n<{{kind}}>' });
    expect(digest.status).toBe(200);
    expect(digest.body).toMatchObject({ part: 'title', format: 'plain', limit: 250, whole_message: false, default_template: '{{heading}}' });
    expect(digest.body.rendered).toMatch(/^📰 Daily digest \d{4}-\d{2}-\d{2} <digest\.daily>$/);
    const untitled = await call<ErrorBody>('POST', '/api/v1/notification-templates/preview', { channel_kind: 'telegram', part: 'title', event_kind: 'digest' });
    expect([untitled.status, untitled.body.details?.fields?.[0]?.rule]).toEqual([400, 'template_no_title']);
  });

  it('sends a stream of signed deliveries through rules and templates: each receiver holds exactly its messages, in the right topics, rendered', async () => {
    const rule = async (body: Record<string, unknown>) => {
      const response = await call<{ id: string }>('POST', '/api/v1/notification-rules', body);
      expect(response.status).toBe(201);
      return response.body.id;
    };
    const now = new Date();
    rules['mute'] = await rule({ name: 'Mute Dependabot', match: { authors: ['dependabot[bot]'] }, route: { channel_ids: [] }, stop: true });
    rules['ci'] = await rule({
      name: 'Failed CI of main',
      match: { events: ['workflow_run'], conclusions: ['failure'], branches: ['main'] },
      route: { channel_ids: [ops, discord], message_thread_id: 42 },
      stop: true,
    });
    rules['bugs'] = await rule({ name: 'Bugs to Slack and the hook', match: { events: ['issues'], labels_any: ['bug'], ignore_bots: true }, route: { channel_ids: [slack, hook] } });
    rules['releases'] = await rule({
      name: 'Releases, not now',
      match: { events: ['release'] },
      route: { channel_ids: [ops], quiet_hours: { start: utcTime(new Date(now.getTime() - 3600_000)), end: utcTime(new Date(now.getTime() + 3600_000)), action: 'drop' } },
    });
    rules['issues'] = await rule({ name: 'Issues to ops', match: { events: ['issues'] }, route: { channel_ids: [ops] } });

    await saveTemplate('ops-issues', { channel_id: ops, event_kind: 'issues', body: '🐞 <b>{{heading}}</b>\n{{#labels}}#{{.}} {{/labels}}\n<a href="{{url}}">open</a>' });
    await saveTemplate('slack-all', { channel_id: slack, event_kind: '*', body: '_{{title}}_ by *{{actor}}*' });
    await saveTemplate('hook-opened', { channel_id: hook, event_kind: 'issues.opened', body: '{{heading}} {{#labels}}[{{.}}]{{/labels}}' });
    await saveTemplate('discord-ci', { channel_id: discord, event_kind: 'workflow_run', body: 'channel template, overridden by the rule' });
    await saveTemplate('rule-ci', { rule_id: rules['ci'], event_kind: 'workflow_run.failure', body: 'CI {{conclusion}} on {{branch}}: {{title}} *{{repository}}*' });
    // Saving the same owner and kind again replaces the text (one template per owner and kind).
    await saveTemplate('ops-issues', { channel_id: ops, event_kind: 'issues', body: '🐞 <b>{{heading}}</b>\n{{#labels}}#{{.}} {{/labels}}\n<a href="{{url}}">open</a>' });
    expect((await call<{ total: number }>('GET', '/api/v1/notification-templates')).body.total).toBe(5);
    expect((await call<{ total: number }>('GET', `/api/v1/notification-templates?rule_id=${rules['ci']}`)).body.total).toBe(1);

    await deliver('issues', issue('acme/api', 11, 'Crash <script> & co', 'alice', ['bug', 'p1']));
    await deliver('pull_request', pullRequest('acme/api', 12, 'dependabot[bot]', ['bug']));
    await deliver('workflow_run', workflowRun('acme/api', 9001, 'failure', 'main'));
    await deliver('workflow_run', workflowRun('acme/api', 9002, 'failure', 'feature/x'));
    await deliver('workflow_run', workflowRun('acme/api', 9003, 'success', 'main'));
    await deliver('release', release('acme/api', 13, 'v2.0.0'));
    await deliver('issues', issue('other/lib', 14, 'Stale deps', 'renovate[bot]', ['bug']));

    await waitFor(
      async () =>
        (await outboxTotal('pending')) === 0 &&
        (await outboxTotal('sending')) === 0 &&
        telegram.messages.length >= 3 &&
        discordContents().length >= 1 &&
        slackTexts().length >= 1 &&
        hookBodies().length >= 1,
      30_000,
    );

    const sent = telegram.messages.map((message) => [message.chatId, message.messageThreadId ?? null, message.text]);
    expect(sent).toEqual([
      [
        OPS_CHAT,
        5,
        '🐞 <b>[acme/api] Issue #11 opened: Crash &lt;script&gt; &amp; co</b>\n#bug #p1 \n<a href="https://github.com/acme/api/issues/11">open</a>',
      ],
      [OPS_CHAT, 42, 'CI failure on main: Workflow CI failed on main *acme/api*'],
      [OPS_CHAT, 5, '🐞 <b>[other/lib] Issue #14 opened: Stale deps</b>\n#bug \n<a href="https://github.com/other/lib/issues/14">open</a>'],
    ]);
    expect(telegram.messages.every((message) => message.parseMode === 'HTML')).toBe(true);
    expect(discordContents()).toEqual([
      '**\\[acme/api\\] Workflow CI failed on main**\nCI failure on main: Workflow CI failed on main *acme/api*\n<https://github.com/acme/api/actions/runs/9001>',
    ]);
    expect(slackTexts()).toEqual(['*[acme/api] Issue #11 opened: Crash &lt;script&gt; &amp; co*\n_Issue #11 opened: Crash &lt;script&gt; &amp; co_ by *alice*\n<https://github.com/acme/api/issues/11|View on GitHub>']);
    expect(hookBodies().map((body) => [body.title, body.body_plain, body.body_text])).toEqual([
      ['[acme/api] Issue #11 opened: Crash <script> & co', '[acme/api] Issue #11 opened: Crash <script> & co [bug][p1]', '[acme/api] Issue #11 opened: Crash &lt;script&gt; &amp; co [bug][p1]'],
    ]);
  }, 120_000);

  it('previews a template on the newest recorded event of the kind, for the channel\'s format and limit', async () => {
    const preview = await call<Preview>('POST', '/api/v1/notification-templates/preview', { channel_id: discord, event_kind: 'issues', body: '**{{title}}** {{#labels}}#{{.}} {{/labels}}' });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ channel_kind: 'discord', format: 'discord_markdown', whole_message: false, truncated: false });
    expect(preview.body.event).toMatchObject({ kind: 'issues.opened', title: 'Issue #14 opened: Stale deps' });
    expect(preview.body.rendered).toBe('**Issue \\#14 opened: Stale deps** #bug');
    const older = await call<Preview>('POST', '/api/v1/notification-templates/preview', { channel_kind: 'slack', event_kind: 'issues', event_id: (preview.body.event?.id ?? 0) - 6, body: '{{title}}' });
    expect(older.body.rendered).toBe('Issue #11 opened: Crash &lt;script&gt; &amp; co');
    const long = await call<Preview>('POST', '/api/v1/notification-templates/preview', { channel_id: ops, event_kind: 'issues', body: `{{title}}${' {{title}}'.repeat(399)}` });
    expect([long.body.truncated, long.body.rendered.length <= 4000]).toEqual([true, true]);
  });

  it('resets a template to the default, audit-logs every change, and exports and imports templates with the rules', async () => {
    expect((await call('DELETE', `/api/v1/notification-templates/${templates['ops-issues'].id}`)).status).toBe(204);
    await deliver('issues', issue('acme/web', 15, 'Back to default', 'carol', []));
    await waitFor(() => telegram.messages.length >= 4, 15_000);
    expect(telegram.messages[3]?.text).toBe('<b>[acme/web] Issue #15 opened: Back to default</b>\nBack to default\nby carol');

    const audit = await call<{ items: Array<{ action: string; target: string | null }> }>('GET', '/api/v1/audit-log?action=notification_template&per_page=100');
    const actions = audit.body.items.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'notification_template.saved')).toHaveLength(7);
    expect(actions.filter((action) => action === 'notification_template.reset')).toHaveLength(2);

    const exported = await call<{ version: number; rules: Array<{ name: string }>; templates: Array<Record<string, unknown>> }>('GET', '/api/v1/notification-rules/export');
    expect(exported.body.version).toBe(2);
    expect(exported.body.templates).toEqual(
      expect.arrayContaining([
        { channel_id: slack, rule: null, part: 'message', event_kind: '*', body: '_{{title}}_ by *{{actor}}*' },
        { channel_id: null, rule: 'Failed CI of main', part: 'message', event_kind: 'workflow_run.failure', body: 'CI {{conclusion}} on {{branch}}: {{title}} *{{repository}}*' },
      ]),
    );
    expect(exported.body.templates).toHaveLength(4);

    const refused = await call<ErrorBody>('POST', '/api/v1/notification-rules/import', {
      rules: exported.body.rules,
      templates: [...exported.body.templates, { rule: 'No such rule', event_kind: '*', body: 'x' }],
    });
    expect([refused.status, refused.body.details?.field]).toEqual([400, 'templates[4].rule']);
    const badBody = await call<ErrorBody>('POST', '/api/v1/notification-rules/import', { rules: exported.body.rules, templates: [{ channel_id: ops, event_kind: '*', body: '{{{title}}}' }] });
    expect([badBody.status, badBody.body.details?.field]).toEqual([400, 'templates[0].body']);
    expect((await call<{ total: number }>('GET', '/api/v1/notification-templates')).body.total).toBe(4);

    // Rules imported without templates take their own templates with them; the channels' stay.
    expect((await call('POST', '/api/v1/notification-rules/import', { rules: exported.body.rules })).status).toBe(200);
    expect((await call<{ items: Template[] }>('GET', '/api/v1/notification-templates')).body.items.map((item) => item.rule_id)).toEqual([null, null, null]);
    const restored = await call<{ items: Array<{ id: string; name: string }> }>('POST', '/api/v1/notification-rules/import', exported.body);
    expect(restored.status).toBe(200);
    const ciRule = restored.body.items.find((item) => item.name === 'Failed CI of main');
    const after = (await call<{ items: Template[] }>('GET', '/api/v1/notification-templates')).body.items;
    expect(after).toHaveLength(4);
    expect(after.find((item) => item.rule_id !== null)).toMatchObject({ rule_id: ciRule?.id, event_kind: 'workflow_run.failure' });
  });

  it('writes the title a channel shows from a title template, kept apart from the message template and exported with it', async () => {
    await saveTemplate('discord-title', { channel_id: discord, part: 'title', event_kind: '*', body: '⚠ {{repository}} · {{workflow}} {{conclusion}}' });
    await saveTemplate('slack-title', { channel_id: slack, part: 'title', event_kind: 'issues', body: 'New issue by {{author}}' });
    // The message template of the same owner and kind stays (one template per owner, part and kind).
    expect((await call<{ items: Template[] }>('GET', `/api/v1/notification-templates?channel_id=${slack}`)).body.items.map((item) => [item.part, item.event_kind])).toEqual([
      ['message', '*'],
      ['title', 'issues'],
    ]);
    expect((await call<{ total: number }>('GET', '/api/v1/notification-templates?part=title')).body.total).toBe(2);
    const discordBefore = discordContents().length;
    const slackBefore = slackTexts().length;
    await deliver('workflow_run', workflowRun('acme/api', 9004, 'failure', 'main'));
    await deliver('issues', issue('acme/api', 16, 'Titles <b>plain</b>', 'dave', ['bug']));
    await waitFor(async () => (await outboxTotal('pending')) === 0 && discordContents().length > discordBefore && slackTexts().length > slackBefore, 30_000);
    expect(discordContents().slice(discordBefore)).toEqual([
      '**⚠ acme/api · CI failure**\nCI failure on main: Workflow CI failed on main *acme/api*\n<https://github.com/acme/api/actions/runs/9004>',
    ]);
    expect(slackTexts().slice(slackBefore)).toEqual(['*New issue by dave*\n_Issue #16 opened: Titles &lt;b&gt;plain&lt;/b&gt;_ by *dave*\n<https://github.com/acme/api/issues/16|View on GitHub>']);
    const exported = await call<{ templates: Array<Record<string, unknown>> }>('GET', '/api/v1/notification-rules/export');
    expect(exported.body.templates).toEqual(expect.arrayContaining([{ channel_id: slack, rule: null, part: 'title', event_kind: 'issues', body: 'New issue by {{author}}' }]));
  }, 60_000);
});
