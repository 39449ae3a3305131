import { outboundDeliveryId } from './notification-worker';
import { EventForMessage, mergedMessage, messageForEvent } from './notification-message';

const event = (overrides: Partial<EventForMessage> = {}): EventForMessage => ({
  id: 1,
  kind: 'issues.opened',
  category: 'issue',
  repository: 'acme/api',
  title: 'Issue #7 opened: a < b & c',
  bodyText: 'a < b & c',
  htmlUrl: 'https://github.com/acme/api/issues/7',
  actor: 'octo<cat>',
  fingerprint: 'f'.repeat(64),
  occurredAt: new Date('2024-05-01T10:00:00Z'),
  details: { number: 7 },
  ...overrides,
});

describe('messageForEvent', () => {
  it('escapes Telegram HTML, heads with the repository and keeps a plain text twin', () => {
    const message = messageForEvent(event());
    expect(message.bodyHtml).toBe('<b>[acme/api] Issue #7 opened: a &lt; b &amp; c</b>\na &lt; b &amp; c\nby octo&lt;cat&gt;');
    expect(message.bodyPlain).toBe('[acme/api] Issue #7 opened: a < b & c\na < b & c\nby octo<cat>');
    expect(message.url).toBe('https://github.com/acme/api/issues/7');
    expect(message.event).toMatchObject({ kind: 'issues.opened', repository: 'acme/api', number: 7, occurred_at: '2024-05-01T10:00:00.000Z' });
  });
});

describe('mergedMessage', () => {
  const items = Array.from({ length: 23 }, (_, index) => messageForEvent(event({ id: index, title: `Issue #${index} opened` })));

  it('summarises a burst in one message listing at most 20 items', () => {
    const merged = mergedMessage('burst', items, 300);
    expect(merged.kind).toBe('summary.burst');
    expect(merged.title).toBe('[acme/api] 23 issue events in a burst (within 300 s)');
    expect(merged.bodyHtml.split('\n')).toHaveLength(1 + 20 + 1);
    expect(merged.bodyHtml).toContain('… and 3 more');
    expect(merged.event).toMatchObject({ kind: 'summary.burst', count: 23 });
    expect((merged.event['items'] as unknown[]).length).toBe(23);
  });

  it('names an aggregate by its count and links the items', () => {
    const merged = mergedMessage('aggregate', items.slice(0, 2), 60);
    expect(merged.title).toBe('[acme/api] 2 issue events');
    expect(merged.bodyHtml).toContain('<a href="https://github.com/acme/api/issues/7">[acme/api] Issue #0 opened</a>');
  });
});

describe('outboundDeliveryId', () => {
  it('is a stable UUID-shaped id per idempotency key, so receivers can drop repeats', () => {
    expect(outboundDeliveryId('abc:channel-1')).toBe(outboundDeliveryId('abc:channel-1'));
    expect(outboundDeliveryId('abc:channel-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(outboundDeliveryId('abc:channel-2')).not.toBe(outboundDeliveryId('abc:channel-1'));
  });
});
