import { LocalTelegramBotApi, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { INBOUND_SECRET, repositoryPayload, sendDelivery } from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const OPS_CHAT = '-100111';
const TEAM_CHAT = '-100222';
const TIME_ZONE = 'Asia/Kolkata';

interface Rule {
  id: string;
  name: string;
  position: number;
  enabled: boolean;
  match: Record<string, unknown>;
  route: { channel_ids: string[]; message_thread_id: number | null; mode: string; quiet_hours: { start: string; end: string; action: string } | null };
  stop: boolean;
}

interface Routing {
  routed_by: string;
  summary: string;
  facts: Record<string, unknown> | null;
  rules: Array<{ rule_id: string; name: string; matched: boolean; reason: string | null; stopped: boolean }>;
  deliveries: Array<{ channel_id: string; channel_name: string | null; message_thread_id: number | null; rule_id: string | null; outcome: string; send_after: string | null; outbox_state: string | null }>;
}

/** HH:MM of an instant in a time zone. */
function localTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(instant);
}

const repo = (fullName: string) => ({ full_name: fullName, id: Math.abs([...fullName].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, 7)) });
const labels = (...names: string[]) => names.map((name, index) => ({ id: index + 1, name }));

function issue(fullName: string, number: number, options: { author: string; labels?: string[] }): Record<string, unknown> {
  return {
    action: 'opened',
    repository: repositoryPayload(fullName, repo(fullName).id),
    issue: {
      number,
      title: `Issue ${number} of ${fullName}`,
      state: 'open',
      html_url: `https://github.com/${fullName}/issues/${number}`,
      user: { login: options.author },
      labels: labels(...(options.labels ?? [])),
      updated_at: new Date().toISOString(),
    },
    sender: { login: options.author },
  };
}

function pullRequest(fullName: string, number: number, options: { author: string; labels?: string[]; draft?: boolean; base?: string }): Record<string, unknown> {
  return {
    action: 'opened',
    repository: repositoryPayload(fullName, repo(fullName).id),
    pull_request: {
      number,
      title: `Change ${number} of ${fullName}`,
      state: 'open',
      merged: false,
      draft: options.draft ?? false,
      html_url: `https://github.com/${fullName}/pull/${number}`,
      user: { login: options.author },
      labels: labels(...(options.labels ?? [])),
      base: { ref: options.base ?? 'main' },
      updated_at: new Date().toISOString(),
    },
    sender: { login: options.author },
  };
}

function workflowRun(fullName: string, id: number, conclusion: string, branch: string): Record<string, unknown> {
  return {
    action: 'completed',
    repository: repositoryPayload(fullName, repo(fullName).id),
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

function dependabotAlert(fullName: string, number: number): Record<string, unknown> {
  return {
    action: 'created',
    repository: repositoryPayload(fullName, repo(fullName).id),
    alert: {
      number,
      state: 'open',
      html_url: `https://github.com/${fullName}/security/dependabot/${number}`,
      updated_at: new Date().toISOString(),
      security_advisory: { severity: 'high', summary: 'Prototype pollution in lodash' },
      dependency: { package: { name: 'lodash' } },
    },
    sender: { login: 'octocat' },
  };
}

function release(fullName: string, id: number, tag: string): Record<string, unknown> {
  return {
    action: 'published',
    repository: repositoryPayload(fullName, repo(fullName).id),
    release: { id, tag_name: tag, name: `Version ${tag}`, body: 'Fixes', prerelease: false, html_url: `https://github.com/${fullName}/releases/tag/${tag}`, published_at: new Date().toISOString() },
    sender: { login: 'octocat' },
  };
}

describe('notification routing rules: a stream of signed deliveries reaches exactly the routed channels and topics', () => {
  const telegram = new LocalTelegramBotApi();
  const receiver = new LocalWebhookReceiver();
  let monitor: RunningMonitor;
  let session: AdminSession;
  let ops: string;
  let team: string;
  let hook: string;
  let quietStart: string;
  let quietEnd: string;
  let quietEndsAt: Date;
  const rules: Record<string, Rule> = {};
  const eventIds: Record<string, number> = {};

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers = adminHeaders(session)) =>
    requestJson<T>(monitor.url, path, { method, headers, body });
  const createRule = async (body: Record<string, unknown>): Promise<Rule> => {
    const response = await call<Rule>('POST', '/api/v1/notification-rules', body);
    expect(response.status).toBe(201);
    return response.body;
  };
  const eventsTotal = async () => (await call<{ total: number }>('GET', '/api/v1/events?per_page=1')).body.total;
  const outboxTotal = async (state: string) => (await call<{ total: number }>('GET', `/api/v1/notifications/outbox?state=${state}&per_page=1`)).body.total;
  /** Sends one signed delivery and waits until its event is recorded; answers the event id. */
  const deliver = async (name: string, event: string, payload: Record<string, unknown>) => {
    const before = await eventsTotal();
    const response = await sendDelivery(monitor.url, event, payload, { deliveryId: randomUUID(), secret: INBOUND_SECRET });
    expect(response.status).toBe(202);
    await waitFor(async () => (await eventsTotal()) > before, 15_000);
    const latest = await call<{ items: Array<{ id: number }> }>('GET', '/api/v1/events?per_page=1');
    eventIds[name] = latest.body.items[0].id;
  };
  const routing = async (name: string): Promise<Routing> => {
    const response = await call<Routing>('GET', `/api/v1/events/${eventIds[name]}/routing`);
    expect(response.status).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    await Promise.all([telegram.start(), receiver.start()]);
    monitor = await startMonitor({
      databasePrefix: 'h4_routing',
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
    expect((await call('PUT', '/api/v1/system/settings', { time_zone: TIME_ZONE })).status).toBe(200);
    const channel = async (body: Record<string, unknown>) => {
      const response = await call<{ id: string }>('POST', '/api/v1/notification-channels', body);
      expect(response.status).toBe(201);
      return response.body.id;
    };
    ops = await channel({ kind: 'telegram', name: 'Ops forum', chat_id: OPS_CHAT, secret: telegram.token, message_thread_id: 5 });
    team = await channel({ kind: 'telegram', name: 'Team chat', chat_id: TEAM_CHAT, secret: telegram.token });
    hook = await channel({ kind: 'http_webhook', name: 'Team hook', url: receiver.urlFor('/team'), allow_private: true });
    // Quiet hours from an hour ago to an hour from now on the configured zone's clock.
    const now = new Date();
    quietStart = localTime(new Date(now.getTime() - 3600_000), TIME_ZONE);
    quietEnd = localTime(new Date(now.getTime() + 3600_000), TIME_ZONE);
    quietEndsAt = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 3600_000);
  }, 60_000);

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([telegram.close(), receiver.close()]);
  });

  it('refuses rule requests without a session, and malformed or unbounded rules, changing nothing', async () => {
    expect((await requestJson(monitor.url, '/api/v1/notification-rules')).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/notification-rules', { method: 'POST', body: { name: 'x', route: { channel_ids: [] } } })).status).toBe(401);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ route: { channel_ids: [] } }, 'name'],
      [{ name: 'x' }, 'route'],
      [{ name: 'x', route: { channel_ids: ['not-a-uuid'] } }, 'channel_ids'],
      [{ name: 'x', route: { channel_ids: [randomUUID()] } }, 'route.channel_ids'],
      [{ name: 'x', route: { channel_ids: [hook], message_thread_id: 3 } }, 'route.message_thread_id'],
      [{ name: 'x', route: { channel_ids: [ops], mode: 'later' } }, 'mode'],
      [{ name: 'x', route: { channel_ids: [ops], quiet_hours: { start: '25:00', end: '07:00', action: 'hold' } } }, 'quiet_hours'],
      [{ name: 'x', route: { channel_ids: [ops], quiet_hours: { start: '07:00', end: '07:00', action: 'hold' } } }, 'route.quiet_hours'],
      [{ name: 'x', route: { channel_ids: [ops], quiet_hours: { start: '22:00', end: '07:00', action: 'snooze' } } }, 'quiet_hours'],
      [{ name: 'x', match: { events: ['push'] }, route: { channel_ids: [] } }, 'events'],
      [{ name: 'x', match: { repositories: Array.from({ length: 51 }, (_, i) => `acme/r${i}`) }, route: { channel_ids: [] } }, 'repositories'],
      [{ name: 'x', match: { branches: ['a'.repeat(201)] }, route: { channel_ids: [] } }, 'branches'],
      [{ name: 'x', match: { labels_any: 'bug' }, route: { channel_ids: [] } }, 'labels_any'],
      [{ name: 'x', match: { unknown_field: true }, route: { channel_ids: [] } }, 'unknown_field'],
      [{ name: 'x', match: { conclusions: ['exploded'] }, route: { channel_ids: [] } }, 'conclusions'],
      [{ name: 'x', match: { draft: 'yes' }, route: { channel_ids: [] } }, 'draft'],
    ];
    for (const [body, mentions] of bad) {
      const response = await call<{ error_code: string; message: string; details?: { field?: string } }>('POST', '/api/v1/notification-rules', body);
      expect({ body, status: response.status, code: response.body.error_code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(`${response.body.message} ${response.body.details?.field ?? ''}`).toContain(mentions);
    }
    expect((await call('GET', '/api/v1/notification-rules/not-a-uuid')).status).toBe(400);
    expect((await call('GET', `/api/v1/notification-rules/${randomUUID()}`)).status).toBe(404);
    expect((await call('PATCH', `/api/v1/notification-rules/${randomUUID()}`, { enabled: false })).status).toBe(404);
    expect((await call<{ total: number }>('GET', '/api/v1/notification-rules')).body.total).toBe(0);
    // A forum topic belongs to a Telegram channel only, and is a positive whole number.
    const topicOnHook = await call<{ details?: { field?: string } }>('PATCH', `/api/v1/notification-channels/${hook}`, { message_thread_id: 7 });
    expect([topicOnHook.status, topicOnHook.body.details?.field]).toEqual([400, 'message_thread_id']);
    expect((await call('PATCH', `/api/v1/notification-channels/${ops}`, { message_thread_id: 0 })).status).toBe(400);
    expect((await call('PATCH', `/api/v1/notification-channels/${ops}`, { message_thread_id: 'five' })).status).toBe(400);
    const cleared = await call<{ message_thread_id: number | null }>('PATCH', `/api/v1/notification-channels/${team}`, { message_thread_id: null });
    expect([cleared.status, cleared.body.message_thread_id]).toEqual([200, null]);
    expect((await call<{ message_thread_id: number | null }>('GET', `/api/v1/notification-channels/${ops}`)).body.message_thread_id).toBe(5);
  });

  it('sends by the channels\' kind filters while no rule exists, into the channel\'s default topic', async () => {
    await deliver('before-rules', 'issues', issue('acme/api', 1, { author: 'alice' }));
    await waitFor(() => telegram.messages.length === 2 && receiver.requests.length === 1, 15_000);
    expect(telegram.messages.map((message) => [message.chatId, message.messageThreadId]).sort()).toEqual([
      [OPS_CHAT, 5],
      [TEAM_CHAT, undefined],
    ]);
    const explained = await routing('before-rules');
    expect(explained.routed_by).toBe('channel_filters');
    expect(explained.deliveries.map((delivery) => delivery.outcome)).toEqual(['queued', 'queued', 'queued']);
    telegram.messages.length = 0;
    receiver.requests.length = 0;
  });

  it('creates, orders and audits the rules', async () => {
    rules['mute'] = await createRule({ name: 'Mute Dependabot', match: { authors: ['dependabot[bot]', 'renovate[bot]'] }, route: { channel_ids: [] }, stop: true });
    rules['ci'] = await createRule({
      name: 'Failed workflows of main to the ops topic',
      match: { events: ['workflow_run'], conclusions: ['failure', 'timed_out'], branches: ['main', 'release/*'] },
      route: { channel_ids: [ops], message_thread_id: 42 },
      stop: true,
    });
    rules['bugs'] = await createRule({
      name: 'Bugs to the team',
      match: { events: ['issues', 'pull_request'], labels_any: ['bug'], labels_none: ['wontfix'], ignore_bots: true },
      route: { channel_ids: [team, hook], mode: 'now' },
    });
    rules['drafts'] = await createRule({ name: 'Drafts into the digest', match: { events: ['pull_request'], draft: true }, route: { channel_ids: [team], mode: 'digest' }, stop: true });
    rules['security'] = await createRule({
      name: 'Alerts wait for the morning',
      match: { events: ['dependabot_alert'], severities: ['critical', 'high'] },
      route: { channel_ids: [ops], quiet_hours: { start: quietStart, end: quietEnd, action: 'hold' } },
    });
    rules['releases'] = await createRule({
      name: 'Releases, not at night',
      match: { events: ['release'] },
      route: { channel_ids: [team], quiet_hours: { start: quietStart, end: quietEnd, action: 'drop' } },
    });
    rules['opened'] = await createRule({ name: 'New acme issues to ops', match: { repositories: ['acme/*'], events: ['issues'], actions: ['opened'] }, route: { channel_ids: [ops] } });
    expect(rules['bugs'].route).toEqual({ channel_ids: [team, hook], message_thread_id: null, mode: 'now', quiet_hours: null });
    const taken = await call<{ details?: { fields?: unknown } }>('POST', '/api/v1/notification-rules', { name: 'Mute Dependabot', route: { channel_ids: [] } });
    expect([taken.status, taken.body.details?.fields]).toEqual([409, [{ field: 'name', rule: 'taken', message: 'a rule with this name exists' }]]);

    // Drafts must be consulted before the bug rule: move it up.
    const order = ['mute', 'ci', 'drafts', 'bugs', 'security', 'releases', 'opened'].map((key) => rules[key].id);
    expect((await call('POST', '/api/v1/notification-rules/reorder', { ids: order.slice(1) })).status).toBe(400);
    expect((await call('POST', '/api/v1/notification-rules/reorder', { ids: [...order.slice(1), order[1]] })).status).toBe(400);
    const reordered = await call<{ items: Rule[] }>('POST', '/api/v1/notification-rules/reorder', { ids: order });
    expect(reordered.status).toBe(200);
    expect(reordered.body.items.map((rule) => rule.id)).toEqual(order);

    const audit = await call<{ items: Array<{ action: string; target: string | null }> }>('GET', '/api/v1/audit-log?per_page=100');
    const actions = audit.body.items.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'notification_rule.created')).toHaveLength(7);
    expect(actions).toContain('notification_rules.reordered');
  });

  it('routes a stream of deliveries: bots muted, labels, branches, conclusions, drafts, a quiet hour', async () => {
    await deliver('bot-pr', 'pull_request', pullRequest('acme/api', 10, { author: 'dependabot[bot]', labels: ['bug'] }));
    await deliver('ci-main', 'workflow_run', workflowRun('acme/api', 9001, 'failure', 'main'));
    await deliver('ci-feature', 'workflow_run', workflowRun('acme/api', 9002, 'failure', 'feature/x'));
    await deliver('ci-release', 'workflow_run', workflowRun('acme/web', 9003, 'timed_out', 'release/1.2'));
    await deliver('ci-cancelled', 'workflow_run', workflowRun('acme/api', 9004, 'cancelled', 'main'));
    await deliver('bug', 'issues', issue('acme/api', 11, { author: 'alice', labels: ['bug', 'backend'] }));
    await deliver('wontfix', 'issues', issue('other/lib', 12, { author: 'alice', labels: ['bug', 'wontfix'] }));
    await deliver('draft', 'pull_request', pullRequest('acme/api', 13, { author: 'alice', labels: ['bug'], draft: true }));
    await deliver('ready', 'pull_request', pullRequest('other/lib', 14, { author: 'carol', labels: ['Bug'] }));
    await deliver('renovate', 'issues', issue('other/lib', 15, { author: 'renovate-bot', labels: ['bug'] }));
    await deliver('alert', 'dependabot_alert', dependabotAlert('acme/api', 16));
    await deliver('release', 'release', release('acme/api', 17, 'v1.0.0'));

    // Everything due is sent; only the alert held for the quiet hours stays pending.
    await waitFor(async () => (await outboxTotal('sending')) === 0 && (await outboxTotal('pending')) === 1 && telegram.messages.length >= 4 && receiver.requests.length >= 2, 20_000);
    const sent = telegram.messages.map((message) => [message.chatId, message.messageThreadId ?? null, message.plainText.split('\n')[0]]).sort();
    expect(sent).toEqual(
      [
        [OPS_CHAT, 42, '[acme/api] Workflow CI failed on main'],
        [OPS_CHAT, 42, '[acme/web] Workflow CI timed out on release/1.2'],
        [OPS_CHAT, 5, '[acme/api] Issue #11 opened: Issue 11 of acme/api'],
        [TEAM_CHAT, null, '[acme/api] Issue #11 opened: Issue 11 of acme/api'],
        [TEAM_CHAT, null, '[other/lib] Pull request #14 opened: Change 14 of other/lib'],
      ].sort(),
    );
    const hooked = receiver.requestsTo('/team').map((request) => (JSON.parse(request.bodyText) as { event: { title: string; labels: string[] } }).event);
    expect(hooked.map((event) => [event.title, event.labels]).sort()).toEqual([
      ['Issue #11 opened: Issue 11 of acme/api', ['bug', 'backend']],
      ['Pull request #14 opened: Change 14 of other/lib', ['Bug']],
    ]);
  }, 120_000);

  it('explains for each event which rules matched and where it went, or why not', async () => {
    const muted = await routing('bot-pr');
    expect(muted.routed_by).toBe('rules');
    expect(muted.rules).toEqual([{ rule_id: rules['mute'].id, name: 'Mute Dependabot', matched: true, reason: null, stopped: true }]);
    expect(muted.deliveries).toEqual([]);
    expect(muted.summary).toBe('Muted by the rule "Mute Dependabot" (it matched, routes nowhere and stops).');
    expect(muted.facts).toMatchObject({ repository: 'acme/api', event: 'pull_request', action: 'opened', author: 'dependabot[bot]', labels: ['bug'], branch: 'main', draft: false });

    const feature = await routing('ci-feature');
    expect(feature.summary).toBe('Not sent: no rule matched.');
    expect(feature.rules.find((rule) => rule.rule_id === rules['ci'].id)?.reason).toBe('branches: feature/x is not one of main, release/*');

    const cancelled = await routing('ci-cancelled');
    expect(cancelled.rules.find((rule) => rule.rule_id === rules['ci'].id)?.reason).toBe('conclusions: cancelled is not one of failure, timed_out');

    const bug = await routing('bug');
    expect(bug.deliveries.map((delivery) => [delivery.channel_name, delivery.message_thread_id, delivery.outcome, delivery.outbox_state, delivery.rule_id])).toEqual([
      ['Team chat', null, 'queued', 'sent', rules['bugs'].id],
      ['Team hook', null, 'queued', 'sent', rules['bugs'].id],
      ['Ops forum', 5, 'queued', 'sent', rules['opened'].id],
    ]);
    expect(bug.summary).toBe('By routing rules: sent to Team chat, Team hook, Ops forum (topic 5).');

    expect((await routing('wontfix')).rules.find((rule) => rule.rule_id === rules['bugs'].id)?.reason).toBe('labels_none: wontfix present');
    expect((await routing('renovate')).rules.find((rule) => rule.rule_id === rules['bugs'].id)?.reason).toBe('ignore_bots: renovate-bot is a bot');

    const draft = await routing('draft');
    expect(draft.deliveries.map((delivery) => [delivery.channel_id, delivery.outcome])).toEqual([[team, 'digest']]);
    expect(draft.rules.map((rule) => rule.rule_id)).toEqual([rules['mute'].id, rules['ci'].id, rules['drafts'].id]);

    const alert = await routing('alert');
    expect(alert.deliveries).toEqual([
      expect.objectContaining({ channel_id: ops, message_thread_id: 5, outcome: 'held', send_after: quietEndsAt.toISOString(), outbox_state: 'pending' }),
    ]);
    const pending = await call<{ items: Array<{ event_id: number; next_attempt_at: string }> }>('GET', '/api/v1/notifications/outbox?state=pending');
    expect(pending.body.items.map((entry) => [entry.event_id, entry.next_attempt_at])).toEqual([[eventIds['alert'], quietEndsAt.toISOString()]]);

    const dropped = await routing('release');
    expect(dropped.deliveries.map((delivery) => [delivery.channel_id, delivery.outcome])).toEqual([[team, 'dropped_quiet_hours']]);

    expect((await call('GET', '/api/v1/events/999999/routing')).status).toBe(404);
    expect((await call('GET', '/api/v1/events/abc/routing')).status).toBe(400);
    expect((await requestJson(monitor.url, `/api/v1/events/${eventIds['bug']}/routing`)).status).toBe(401);
  });

  it('dry-runs changed rules against the latest events without sending', async () => {
    const sentBefore = telegram.messages.length;
    const stored = (await call<{ items: Rule[] }>('GET', '/api/v1/notification-rules')).body.items;
    const withoutMute = stored.filter((rule) => rule.id !== rules['mute'].id).map(({ id, name, enabled, match, route, stop }) => ({ id, name, enabled, match, route, stop }));
    const response = await call<{
      items: Array<{
        event_id: number;
        routed_by: string;
        summary: string;
        recorded_summary: string;
        recorded: { routed_by: string; rules: Array<{ name: string; matched: boolean; stopped: boolean }>; deliveries: unknown[] };
      }>;
    }>('POST', '/api/v1/notification-rules/dry-run', { rules: withoutMute });
    expect(response.status).toBe(200);
    const botPr = response.body.items.find((item) => item.event_id === eventIds['bot-pr']);
    expect(botPr?.recorded_summary).toBe('Muted by the rule "Mute Dependabot" (it matched, routes nowhere and stops).');
    expect(botPr?.summary).toBe('Not sent: no rule matched.');
    // The decisions come as fields too, so the console words them in the person's language.
    expect(botPr?.routed_by).toBe('rules');
    expect(botPr?.recorded.routed_by).toBe('rules');
    expect(botPr?.recorded.deliveries).toEqual([]);
    expect(botPr?.recorded.rules.find((rule) => rule.matched)).toMatchObject({ name: 'Mute Dependabot', stopped: true });
    expect(response.body.items.map((item) => item.event_id)).toEqual([...response.body.items.map((item) => item.event_id)].sort((a, b) => b - a));
    expect((await call('POST', '/api/v1/notification-rules/dry-run', { rules: [{ name: 'x' }] })).status).toBe(400);
    expect(telegram.messages.length).toBe(sentBefore);
  });

  it('exports the rules and imports them back whole, or not at all', async () => {
    const exported = await call<{ format: string; version: number; rules: Array<Record<string, unknown>> }>('GET', '/api/v1/notification-rules/export');
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ format: 'repo-monitor.notification-rules', version: 2, templates: [] });
    expect(exported.body.rules.map((rule) => rule['name'])).toEqual([
      'Mute Dependabot',
      'Failed workflows of main to the ops topic',
      'Drafts into the digest',
      'Bugs to the team',
      'Alerts wait for the morning',
      'Releases, not at night',
      'New acme issues to ops',
    ]);
    const broken = [...exported.body.rules, { name: 'Mute Dependabot', route: { channel_ids: [] } }];
    const refused = await call<{ error_code: string }>('POST', '/api/v1/notification-rules/import', { rules: broken });
    expect(refused.status).toBe(400);
    const unknownChannel = await call('POST', '/api/v1/notification-rules/import', { rules: [{ name: 'y', route: { channel_ids: [randomUUID()] } }] });
    expect(unknownChannel.status).toBe(400);
    expect((await call<{ total: number }>('GET', '/api/v1/notification-rules')).body.total).toBe(7);

    const imported = await call<{ items: Rule[] }>('POST', '/api/v1/notification-rules/import', { rules: exported.body.rules.slice(1).reverse() });
    expect(imported.status).toBe(200);
    expect(imported.body.items.map((rule) => [rule.name, rule.position])).toEqual(exported.body.rules.slice(1).reverse().map((rule, index) => [rule['name'], index + 1]));
    const again = await call<{ rules: unknown[] }>('GET', '/api/v1/notification-rules/export');
    expect(again.body.rules).toEqual(exported.body.rules.slice(1).reverse());
    const audit = await call<{ items: Array<{ action: string; details: unknown }> }>('GET', '/api/v1/audit-log?per_page=5');
    expect(audit.body.items.map((entry) => entry.action)).toContain('notification_rules.imported');
  });

  it('updates, disables and deletes a rule; with every rule disabled the kind filters decide again', async () => {
    const list = (await call<{ items: Rule[] }>('GET', '/api/v1/notification-rules')).body.items;
    const first = list[0];
    const renamed = await call<Rule>('PATCH', `/api/v1/notification-rules/${first.id}`, { name: 'Renamed', match: { events: ['issues'] } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', match: { events: ['issues'] }, route: first.route });
    expect((await call('PATCH', `/api/v1/notification-rules/${first.id}`, { name: null })).status).toBe(400);
    expect((await call('PATCH', `/api/v1/notification-rules/${first.id}`, { name: list[1].name })).status).toBe(409);
    for (const rule of list) expect((await call('PATCH', `/api/v1/notification-rules/${rule.id}`, { enabled: false })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/notification-rules/${first.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/v1/notification-rules/${first.id}`)).status).toBe(404);

    telegram.messages.length = 0;
    await deliver('all-disabled', 'issues', issue('other/lib', 20, { author: 'dependabot[bot]' }));
    await waitFor(() => telegram.messages.length === 2, 15_000);
    expect((await routing('all-disabled')).routed_by).toBe('channel_filters');
  });
});
