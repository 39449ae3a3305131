import { screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { EventRoutingModal } from './event-routing';

const resources = { en, zh };

const routing = {
  event_id: 7,
  kind: 'issues.opened',
  routed_by: 'rules',
  summary: 'By routing rules: sent to Ops (topic 5); held for quiet hours until 2026-11-28T08:00:00.000Z, then sent to Phone.',
  routed_at: '2026-11-28T01:00:00Z',
  facts: null,
  rules: [
    { rule_id: 'r1', name: 'Mute Dependabot', matched: false, reason: 'authors: "alice" not in "dependabot[bot]"', stopped: false },
    { rule_id: 'r2', name: 'Old', matched: false, reason: 'disabled', stopped: false },
    { rule_id: 'r3', name: 'Issues to ops', matched: true, reason: null, stopped: false },
  ],
  deliveries: [
    { channel_id: 'c1', channel_name: 'Ops', message_thread_id: 5, rule_id: 'r3', outcome: 'queued', send_after: null, outbox_id: 1, outbox_state: 'sent' },
    { channel_id: 'c2', channel_name: 'Phone', message_thread_id: null, rule_id: 'r3', outcome: 'held', send_after: '2026-11-28T08:00:00.000Z', outbox_id: 2, outbox_state: 'pending' },
  ],
};

describe('EventRoutingModal', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const serve = () =>
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      return jsonResponse(routing);
    });

  it('words where an event went and why each rule did not match in Chinese, naming fields as the Rules page does', async () => {
    serve();
    renderWithProviders(<EventRoutingModal event={{ id: 7, title: 'Crash' }} onClose={() => undefined} />, { resources, path: '/events', language: 'zh-CN' });
    expect(await screen.findByText(/^按路由规则：发送到 Ops（话题 5）；免打扰时段暂存到 .*2026.*，之后发送到 Phone。$/)).toBeInTheDocument();
    expect(screen.getByText(/未匹配：“作者或发送者”不符/)).toBeInTheDocument();
    expect(screen.getByText(/已停用/)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/By routing rules|authors:|not in/);
  });

  it('says the same in English without the API\'s field names', async () => {
    serve();
    renderWithProviders(<EventRoutingModal event={{ id: 7, title: 'Crash' }} onClose={() => undefined} />, { resources, path: '/events' });
    expect(await screen.findByText(/^By routing rules: sent to Ops \(topic 5\); held for quiet hours until .+, then sent to Phone\.$/)).toBeInTheDocument();
    expect(screen.getByText(/did not match on “Authors or senders” \("alice" not in "dependabot\[bot\]"\)/)).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('authors:');
  });
});
