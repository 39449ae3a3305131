import { EventFacts, globPattern, isBotLogin, mismatch, quietUntil, RoutableChannel, routeEvent, RoutingRule } from './rule-matcher';
import { zonedClock } from './zoned-clock';

const facts = (overrides: Partial<EventFacts> = {}): EventFacts => ({
  repository: 'acme/api',
  event: 'pull_request',
  action: 'opened',
  labels: ['bug', 'Backend'],
  author: 'alice',
  sender: 'alice',
  branch: 'main',
  workflow: null,
  conclusion: null,
  severity: null,
  draft: false,
  ...overrides,
});

const rule = (id: string, overrides: Partial<RoutingRule> = {}): RoutingRule => ({
  id,
  name: id,
  enabled: true,
  match: {},
  route: { channel_ids: ['tg'], message_thread_id: null, mode: 'now', quiet_hours: null },
  stop: false,
  ...overrides,
});

const channels: RoutableChannel[] = [
  { id: 'tg', kind: 'telegram', enabled: true, eventKinds: [], defaultThreadId: 7 },
  { id: 'hook', kind: 'http_webhook', enabled: true, eventKinds: ['workflow_run'], defaultThreadId: null },
  { id: 'off', kind: 'telegram', enabled: false, eventKinds: [], defaultThreadId: null },
];
const utc = zonedClock('UTC');
const noon = new Date('2026-03-02T12:00:00Z');

describe('globPattern', () => {
  it('matches owner/*, ** and ? but not across a slash with one star', () => {
    expect(globPattern('acme/*').test('acme/api')).toBe(true);
    expect(globPattern('acme/*').test('ACME/Api')).toBe(true);
    expect(globPattern('acme/*').test('other/api')).toBe(false);
    expect(globPattern('release/*').test('release/1.2/hotfix')).toBe(false);
    expect(globPattern('release/**').test('release/1.2/hotfix')).toBe(true);
    expect(globPattern('v?.x').test('v1.x')).toBe(true);
    expect(globPattern('a.b').test('axb')).toBe(false);
    expect(globPattern('(x)+[y]').test('(x)+[y]')).toBe(true);
  });
});

describe('mismatch', () => {
  it('matches every event with an empty match', () => {
    expect(mismatch({}, facts())).toBeNull();
  });

  it('checks repositories exactly, by owner and by glob', () => {
    expect(mismatch({ repositories: ['acme/api'] }, facts())).toBeNull();
    expect(mismatch({ repositories: ['acme/*'] }, facts())).toBeNull();
    expect(mismatch({ repositories: ['*/a*'] }, facts())).toBeNull();
    expect(mismatch({ repositories: ['acme/web'] }, facts())).toMatch(/^repositories:/);
    expect(mismatch({ repositories: ['acme/*'] }, facts({ repository: null }))).toBe('repositories: the event has no repository');
  });

  it('checks events and actions', () => {
    expect(mismatch({ events: ['pull_request'], actions: ['opened', 'merged'] }, facts())).toBeNull();
    expect(mismatch({ events: ['issues'] }, facts())).toMatch(/^events:/);
    expect(mismatch({ actions: ['closed'] }, facts())).toMatch(/^actions:/);
  });

  it('checks labels any, all and none, ignoring case', () => {
    expect(mismatch({ labels_any: ['backend', 'docs'] }, facts())).toBeNull();
    expect(mismatch({ labels_any: ['docs'] }, facts())).toMatch(/^labels_any/);
    expect(mismatch({ labels_all: ['bug', 'backend'] }, facts())).toBeNull();
    expect(mismatch({ labels_all: ['bug', 'urgent'] }, facts())).toBe('labels_all: urgent missing');
    expect(mismatch({ labels_none: ['wontfix'] }, facts())).toBeNull();
    expect(mismatch({ labels_none: ['BUG'] }, facts())).toBe('labels_none: BUG present');
    expect(mismatch({ labels_none: ['bug'] }, facts({ labels: [] }))).toBeNull();
  });

  it('checks authors against the author and the sender, and ignores bots', () => {
    expect(mismatch({ authors: ['alice'] }, facts())).toBeNull();
    expect(mismatch({ authors: ['bob'] }, facts({ sender: 'bob' }))).toBeNull();
    expect(mismatch({ authors: ['carol'] }, facts())).toMatch(/^authors:/);
    expect(mismatch({ authors_exclude: ['Alice'] }, facts())).toBe('authors_exclude: alice excluded');
    expect(mismatch({ ignore_bots: true }, facts())).toBeNull();
    expect(mismatch({ ignore_bots: true }, facts({ author: 'dependabot[bot]' }))).toBe('ignore_bots: dependabot[bot] is a bot');
    expect(mismatch({ ignore_bots: true }, facts({ sender: 'renovate-bot' }))).toMatch(/^ignore_bots/);
    expect(mismatch({ ignore_bots: false }, facts({ author: 'dependabot[bot]' }))).toBeNull();
    expect(isBotLogin('github-actions[bot]')).toBe(true);
    expect(isBotLogin('robert')).toBe(false);
  });

  it('checks branches, workflows, conclusions, severities and draft', () => {
    expect(mismatch({ branches: ['main', 'release/*'] }, facts({ branch: 'release/2.0' }))).toBeNull();
    expect(mismatch({ branches: ['main'] }, facts({ branch: 'feature/x' }))).toMatch(/^branches:/);
    expect(mismatch({ branches: ['main'] }, facts({ branch: null }))).toBe('branches: the event has no branch');
    expect(mismatch({ workflows: ['CI*'] }, facts({ workflow: 'CI nightly' }))).toBeNull();
    expect(mismatch({ workflows: ['Deploy'] }, facts({ workflow: 'CI' }))).toMatch(/^workflows:/);
    expect(mismatch({ conclusions: ['failure', 'timed_out'] }, facts({ conclusion: 'failure' }))).toBeNull();
    expect(mismatch({ conclusions: ['failure'] }, facts({ conclusion: 'cancelled' }))).toMatch(/^conclusions:/);
    expect(mismatch({ severities: ['critical', 'high'] }, facts({ severity: 'High' }))).toBeNull();
    expect(mismatch({ severities: ['critical'] }, facts({ severity: 'low' }))).toMatch(/^severities:/);
    expect(mismatch({ draft: false }, facts())).toBeNull();
    expect(mismatch({ draft: true }, facts())).toBe('draft: the pull request is not a draft');
    expect(mismatch({ draft: false }, facts({ draft: null }))).toBe('draft: the event is not a pull request');
  });
});

describe('quietUntil', () => {
  it('holds inside a window spanning midnight until it ends, in the zone', () => {
    const quiet = { start: '22:00', end: '07:00', action: 'hold' as const };
    expect(quietUntil(quiet, new Date('2026-03-02T23:30:00Z'), utc)?.toISOString()).toBe('2026-03-03T07:00:00.000Z');
    expect(quietUntil(quiet, new Date('2026-03-02T03:00:00Z'), utc)?.toISOString()).toBe('2026-03-02T07:00:00.000Z');
    expect(quietUntil(quiet, noon, utc)).toBeNull();
    // 12:00 UTC is 21:00 in Tokyo (outside), 13:30 UTC is 22:30 there (inside), ending 07:00 Tokyo = 22:00 UTC.
    const tokyo = zonedClock('Asia/Tokyo');
    expect(quietUntil(quiet, noon, tokyo)).toBeNull();
    expect(quietUntil(quiet, new Date('2026-03-02T13:30:00Z'), tokyo)?.toISOString()).toBe('2026-03-02T22:00:00.000Z');
  });

  it('handles a window within one day and the end minute itself', () => {
    const quiet = { start: '12:00', end: '13:00', action: 'drop' as const };
    expect(quietUntil(quiet, noon, utc)?.toISOString()).toBe('2026-03-02T13:00:00.000Z');
    expect(quietUntil(quiet, new Date('2026-03-02T13:00:00Z'), utc)).toBeNull();
  });
});

describe('routeEvent', () => {
  const kind = { kind: 'pull_request.opened', category: 'pr' };

  it('keeps the channels\' kind filters when no rule is enabled', () => {
    const decision = routeEvent([rule('a', { enabled: false })], facts(), kind, channels, noon, utc);
    expect(decision.mode).toBe('channel_filters');
    expect(decision.deliveries).toEqual([{ channel_id: 'tg', message_thread_id: 7, rule_id: null, outcome: 'queued', send_after: null }]);
    expect(routeEvent([], facts({ event: 'workflow_run' }), { kind: 'workflow_run.failure', category: 'actions' }, channels, noon, utc).deliveries.map((d) => d.channel_id)).toEqual(['tg', 'hook']);
  });

  it('sends only where matching rules route, in order, up to a stop', () => {
    const rules = [
      rule('mute-bots', { match: { ignore_bots: false, authors: ['dependabot[bot]'] }, route: { channel_ids: [], message_thread_id: null, mode: 'now', quiet_hours: null }, stop: true }),
      rule('ops', { match: { labels_any: ['bug'] }, route: { channel_ids: ['tg', 'hook'], message_thread_id: 42, mode: 'now', quiet_hours: null } }),
      rule('all', { route: { channel_ids: ['tg'], message_thread_id: null, mode: 'digest', quiet_hours: null } }),
    ];
    const routed = routeEvent(rules, facts(), kind, channels, noon, utc);
    expect(routed.mode).toBe('rules');
    expect(routed.rules.map((v) => [v.rule_id, v.matched])).toEqual([['mute-bots', false], ['ops', true], ['all', true]]);
    expect(routed.deliveries).toEqual([
      { channel_id: 'tg', message_thread_id: 42, rule_id: 'ops', outcome: 'queued', send_after: null },
      { channel_id: 'hook', message_thread_id: null, rule_id: 'ops', outcome: 'queued', send_after: null },
      { channel_id: 'tg', message_thread_id: 7, rule_id: 'all', outcome: 'digest', send_after: null },
    ]);
    const muted = routeEvent(rules, facts({ author: 'dependabot[bot]' }), kind, channels, noon, utc);
    expect(muted.deliveries).toEqual([]);
    expect(muted.rules).toEqual([{ rule_id: 'mute-bots', name: 'mute-bots', matched: true, reason: null, stopped: true }]);
    const unmatched = routeEvent(rules.slice(0, 2), facts({ labels: [] }), kind, channels, noon, utc);
    expect(unmatched.deliveries).toEqual([]);
  });

  it('reports duplicates, unavailable channels and quiet hours', () => {
    const quiet = { start: '11:00', end: '13:00', action: 'hold' as const };
    const rules = [
      rule('first', { route: { channel_ids: ['tg', 'off', 'gone'], message_thread_id: null, mode: 'now', quiet_hours: quiet } }),
      rule('second', { route: { channel_ids: ['tg'], message_thread_id: null, mode: 'now', quiet_hours: null } }),
      rule('third', { route: { channel_ids: ['hook'], message_thread_id: null, mode: 'now', quiet_hours: { ...quiet, action: 'drop' } } }),
    ];
    expect(routeEvent(rules, facts(), kind, channels, noon, utc).deliveries.map((d) => [d.channel_id, d.outcome, d.send_after])).toEqual([
      ['tg', 'held', '2026-03-02T13:00:00.000Z'],
      ['off', 'channel_unavailable', null],
      ['gone', 'channel_unavailable', null],
      ['tg', 'duplicate', null],
      ['hook', 'dropped_quiet_hours', null],
    ]);
  });
});
