import { act, fireEvent, screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { AuditLogPage } from './audit-log-page';

const resources = { en, zh };

describe('AuditLogPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows actions, channels and details in words, and filters by kind of action and by who acted in the URL', async () => {
    const urls: URL[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      urls.push(url);
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      if (url.pathname === '/api/v1/notification-channels') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 'ch_1', name: 'Team chat' }] });
      if (url.pathname === '/api/v1/notification-rules') return jsonResponse({ total: 0, items: [] });
      return jsonResponse({
        page: 1,
        per_page: 50,
        total: 2,
        items: [
          { id: 2, created_at: '2026-11-25T10:00:00Z', actor: 'admin', action: 'notification_channel.updated', target: 'ch_1', details: { fields: ['event_kinds', 'name'] }, client_ip: '127.0.0.1' },
          { id: 1, created_at: '2026-11-25T09:00:00Z', actor: 'system', action: 'system_settings.updated', target: null, details: { fields: ['time_zone'] }, client_ip: null },
        ],
      });
    });
    renderWithProviders(<AuditLogPage />, { resources, path: '/audit-log' });
    expect(await screen.findByText('Channel changed')).toBeInTheDocument();
    expect(await screen.findByText('Channel Team chat')).toBeInTheDocument();
    expect(screen.getByText('Changed: kinds of event, name')).toBeInTheDocument();
    expect(screen.getByText('Changed: time zone')).toBeInTheDocument();
    expect(screen.getByText('The service')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/[a-z]+_[a-z]+/);
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Kind of action' }), { target: { value: 'notification_channel' } });
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'By (user name)' }), { target: { value: 'admin' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    await vi.waitFor(() =>
      expect(urls.some((url) => url.pathname === '/api/v1/audit-log' && url.searchParams.get('action') === 'notification_channel' && url.searchParams.get('actor') === 'admin')).toBe(true),
    );
  });

  it('says every action, target and detail in Chinese: templates by their channel or rule, parts and changed fields translated', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      if (url.pathname === '/api/v1/notification-channels') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 'ch_1', name: 'Team chat' }] });
      if (url.pathname === '/api/v1/notification-rules') return jsonResponse({ total: 1, items: [{ id: 'r_1', name: 'Bugs' }] });
      return jsonResponse({
        page: 1,
        per_page: 50,
        total: 5,
        items: [
          { id: 5, created_at: '2026-11-25T12:00:00Z', actor: 'admin', action: 'notification_template.saved', target: 't_1', details: { channel_id: 'ch_1', rule_id: null, part: 'title', event_kind: 'issues' }, client_ip: '127.0.0.1' },
          { id: 4, created_at: '2026-11-25T11:00:00Z', actor: 'admin', action: 'notification_template.reset', target: 't_2', details: { channel_id: null, rule_id: 'r_1', part: 'message', event_kind: 'workflow_run' }, client_ip: '127.0.0.1' },
          { id: 3, created_at: '2026-11-25T10:30:00Z', actor: 'admin', action: 'notification_rule.updated', target: 'r_1', details: { fields: ['match', 'route'] }, client_ip: '127.0.0.1' },
          { id: 2, created_at: '2026-11-25T10:00:00Z', actor: 'cli', action: 'admin.password_reset', target: 'admin', details: { totp_disabled: true }, client_ip: null },
          { id: 1, created_at: '2026-11-25T09:00:00Z', actor: 'system', action: 'redelivery.swept', target: null, details: { looked_at: 4, failed: 1, requested: 1, recovered: 0, given_up: 0 }, client_ip: null },
        ],
      });
    });
    renderWithProviders(<AuditLogPage />, { resources, path: '/audit-log', language: 'zh-CN' });
    expect(await screen.findByText('消息模板恢复默认')).toBeInTheDocument();
    expect(await screen.findByText('渠道 Team chat')).toBeInTheDocument();
    expect(screen.getAllByText('规则 Bugs')).toHaveLength(2);
    expect(screen.getByText('部分: 标题')).toBeInTheDocument();
    expect(screen.getByText('修改项: 匹配条件, 发送去向')).toBeInTheDocument();
    expect(screen.getByText('从命令行重置了密码')).toBeInTheDocument();
    expect(screen.getByText('自动找回了错过的投递')).toBeInTheDocument();
    // No API code, field name or id is left in what a person reads.
    expect(document.body.textContent).not.toMatch(/[a-z]+_[a-z]+|ch_1|r_1/);
  });
});
