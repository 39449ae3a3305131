import { screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { RepositoryPage } from './repository-page';

const resources = { en, zh };
const page = (items: unknown[]) => jsonResponse({ page: 1, per_page: 10, total: items.length, items });

describe('RepositoryPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('gathers the repository\u2019s events, open issues and pull requests, runs and alerts, each asked for by repository', async () => {
    const urls: URL[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      urls.push(url);
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      if (url.pathname === '/api/v1/repositories/5') {
        return jsonResponse({ id: 5, full_name: 'acme/api', html_url: 'https://github.com/acme/api', private: false, source: 'installation', installation_id: 1, status: 'active', notify: {}, baseline_imported_at: null, created_at: '2026-11-25T10:00:00Z', updated_at: '2026-11-25T10:00:00Z' });
      }
      if (url.pathname === '/api/v1/events') return page([{ id: 1, repository_id: 5, kind: 'issues.opened', category: 'issue', title: 'Issue #7 opened: <b>Crash</b>', body_text: '', html_url: 'https://github.com/acme/api/issues/7', actor: 'a', fingerprint: 'f', notified: true, notification: 'sent', occurred_at: '2026-11-25T10:00:00Z', created_at: '2026-11-25T10:00:00Z' }]);
      if (url.pathname === '/api/v1/work-items') return page([{ id: 2, repository_id: 5, kind: 'pull_request', number: 12, title: 'Fix it', state: 'open', merged: false, draft: false, author: 'b', html_url: 'https://github.com/acme/api/pull/12', updated_at: '2026-11-25T10:00:00Z' }]);
      if (url.pathname === '/api/v1/workflow-runs') return page([]);
      if (url.pathname === '/api/v1/security-alerts') return page([{ id: 3, repository_id: 5, kind: 'dependabot', number: 1, state: 'open', severity: 'high', summary: 'ReDoS in minimatch', html_url: 'https://github.com/acme/api/security/dependabot/1', ignored: false, updated_at: '2026-11-25T10:00:00Z' }]);
      return jsonResponse({ error_code: 'not_found', message: 'no route' }, 404);
    });
    renderWithProviders(<RepositoryPage />, { resources, path: '/repositories/:id', url: '/repositories/5' });
    expect(await screen.findByRole('heading', { name: 'acme/api' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Issue #7 opened: <b>Crash<\/b>/ })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /#12 Fix it/ })).toBeInTheDocument();
    expect(await screen.findByText('No workflow runs recorded.')).toBeInTheDocument();
    expect(await screen.findByText(/^High ·/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'See 1' }).map((link) => link.getAttribute('href'))).toEqual(['/events?repository=5', '/work-items?repository=5&state=open', '/security-alerts?repository=5&state=open']);
    for (const path of ['/api/v1/events', '/api/v1/work-items', '/api/v1/workflow-runs', '/api/v1/security-alerts']) {
      expect(urls.find((url) => url.pathname === path)?.searchParams.get('repository_id')).toBe('5');
    }
  });

  it('shows the in-app "page not found" for a repository that does not exist or a malformed id', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ error_code: 'not_found', message: 'no such repository' }, 404));
    renderWithProviders(<RepositoryPage />, { resources, path: '/repositories/:id', url: '/repositories/999' });
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
