import { act, fireEvent, screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { DeliveriesPage } from './deliveries-page';

const resources = { en, zh };

function stubApi(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>) {
  const urls: URL[] = [];
  fetchMock.mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
    const url = new URL(request.url, 'http://localhost');
    urls.push(url);
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
    if (url.pathname === '/api/v1/deliveries') {
      return jsonResponse({
        page: 1,
        per_page: 25,
        total: 2,
        items: [
          { id: 2, delivery_id: 'guid-fork', event: 'fork', action: null, repository_full_name: 'acme/api', status: 'processed', attempts: 1, last_error: null, handled: false, received_at: '2026-11-25T10:01:00Z', processed_at: '2026-11-25T10:01:01Z' },
          { id: 1, delivery_id: 'guid-issue', event: 'issues', action: 'opened', repository_full_name: '<b>acme</b>/api', status: 'failed', attempts: 5, last_error: 'database locked', handled: true, received_at: '2026-11-25T10:00:00Z', processed_at: null },
        ],
      });
    }
    if (url.pathname === '/api/v1/deliveries/rejected') {
      const items = [
        { id: 7, received_at: '2026-11-25T10:02:00Z', reason: 'bad_signature', http_status: 401, detail: 'the X-Hub-Signature-256 signature is missing or does not match', delivery_id: 'guid-bad', event: 'push', remote_address: '140.82.115.1', user_agent: 'GitHub-Hookshot/abc', body_bytes: 2048 },
      ];
      return jsonResponse({ page: 1, per_page: 25, total: 1, items: url.searchParams.get('reason') === 'too_large' ? [] : items });
    }
    return jsonResponse({ error_code: 'not_found', message: 'no route' }, 404);
  });
  return urls;
}

describe('DeliveriesPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('lists accepted deliveries with their status, an ignored kind and a processing error, GitHub text as text', async () => {
    stubApi(fetchMock);
    renderWithProviders(<DeliveriesPage />, { resources, path: '/deliveries' });
    expect(await screen.findByText('issues.opened')).toBeInTheDocument();
    expect(screen.getByText('Processing failed')).toBeInTheDocument();
    expect(screen.getByText('Not a kind repo-monitor acts on: stored and ignored.')).toBeInTheDocument();
    expect(screen.getByText('Last error: database locked (5 attempts)')).toBeInTheDocument();
    expect(screen.getByText('<b>acme</b>/api')).toBeInTheDocument();
  });

  it('shows a refused request with its reason and what to fix, and filters by reason in the URL', async () => {
    const urls = stubApi(fetchMock);
    renderWithProviders(<DeliveriesPage />, { resources, path: '/deliveries', url: '/deliveries?view=rejected' });
    expect(await screen.findByText('guid-bad')).toBeInTheDocument();
    expect(screen.getAllByText('Signature does not match')).toHaveLength(2);
    expect(screen.getByText(/The secret in the GitHub App’s settings differs from the one here/)).toBeInTheDocument();
    expect(screen.getByText('2.0 KiB')).toBeInTheDocument();
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Reason' }), { target: { value: 'too_large' } });
    });
    expect(await screen.findByText('Nothing refused')).toBeInTheDocument();
    expect(urls.some((url) => url.pathname === '/api/v1/deliveries/rejected' && url.searchParams.get('reason') === 'too_large')).toBe(true);
  });
});
