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
    expect(screen.getByText('Changed: event kinds, name')).toBeInTheDocument();
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
});
