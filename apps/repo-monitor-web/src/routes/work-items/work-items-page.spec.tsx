import { act, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { workItemFilterFromParams, workItemFilterToParams, workItemQuery, workItemStatus } from './work-item-filter';
import { WorkItemsPage } from './work-items-page';

const resources = { en, zh };

const ISSUE = {
  id: 1,
  repository_id: 7,
  kind: 'issue',
  number: 42,
  title: '<img src=x onerror=alert(1)> crash on start',
  state: 'open',
  merged: false,
  draft: false,
  author: 'octocat',
  html_url: 'https://github.com/acme/app/issues/42',
  updated_at: '2026-11-25T16:30:00Z',
};
const PULL = { ...ISSUE, id: 2, kind: 'pull_request', number: 43, title: 'Fix the crash', state: 'closed', merged: true, author: 'hubot', html_url: 'https://github.com/acme/app/pull/43' };

function stubApi(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, body: (url: URL) => Response) {
  const requested: URL[] = [];
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'Asia/Shanghai' });
    if (url.pathname === '/api/v1/repositories') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 7, full_name: 'acme/app' }] });
    requested.push(url);
    return body(url);
  });
  return requested;
}

describe('work item filter', () => {
  it('reads the URL, dropping what the API would refuse, and writes it back', () => {
    const filter = workItemFilterFromParams(new URLSearchParams('q=%20crash%20&kind=pull_request&state=closed&repository=3&page=2'));
    expect(filter).toEqual({ page: 2, q: 'crash', kind: 'pull_request', state: 'closed', repositoryId: 3 });
    expect(workItemFilterToParams(filter).toString()).toBe('q=crash&kind=pull_request&state=closed&repository=3&page=2');
    expect(workItemQuery(filter)).toEqual({ page: 2, per_page: 25, q: 'crash', kind: 'pull_request', state: 'closed', repository_id: 3 });
    expect(workItemFilterFromParams(new URLSearchParams('kind=pr&state=merged&page=0&repository=-1&q=' + 'x'.repeat(300)))).toEqual({
      page: 1,
      q: 'x'.repeat(200),
      kind: '',
      state: '',
      repositoryId: null,
    });
    expect(workItemQuery(workItemFilterFromParams(new URLSearchParams()))).toEqual({ page: 1, per_page: 25 });
  });

  it('shows merged pull requests as merged and open drafts as drafts', () => {
    expect(workItemStatus({ kind: 'pull_request', state: 'closed', merged: true, draft: false })).toBe('merged');
    expect(workItemStatus({ kind: 'pull_request', state: 'open', merged: false, draft: true })).toBe('draft');
    expect(workItemStatus({ kind: 'pull_request', state: 'closed', merged: false, draft: false })).toBe('closed');
    expect(workItemStatus({ kind: 'issue', state: 'open', merged: false, draft: false })).toBe('open');
  });
});

describe('WorkItemsPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('lists issues and pull requests with GitHub text as text, links opening in a new tab, and translated kinds and states', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 2, items: [ISSUE, PULL] }));
    renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items' });
    const issue = await screen.findByRole('link', { name: /#42 <img src=x onerror=alert\(1\)> crash on start/ });
    expect(issue).toHaveAttribute('href', 'https://github.com/acme/app/issues/42');
    expect(issue).toHaveAttribute('target', '_blank');
    expect(issue).toHaveAttribute('rel', 'noopener noreferrer');
    expect(document.querySelector('a img')).toBeNull();
    const pull = screen.getByRole('row', { name: /Fix the crash/ });
    expect(within(pull).getByText('Pull request')).toBeInTheDocument();
    expect(within(pull).getByText('Merged')).toBeInTheDocument();
    expect(within(pull).getByText('hubot')).toBeInTheDocument();
    expect(await within(pull).findByText('acme/app')).toBeInTheDocument();
    // 16:30 UTC is past midnight in Shanghai: the configured zone is used.
    expect(within(pull).getByText('2026-11-26 00:30:00')).toBeInTheDocument();
  });

  it('shows an item whose link is javascript: or data: as text, never as an anchor with that scheme', async () => {
    const hostile = [
      { ...ISSUE, id: 3, number: 44, title: 'Script link', html_url: 'javascript:alert(document.cookie)' },
      { ...ISSUE, id: 4, number: 45, title: 'Data link', html_url: 'data:text/html,<script>alert(1)</script>' },
    ];
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 3, items: [...hostile, PULL] }));
    renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items' });
    expect(await screen.findByRole('link', { name: /#43 Fix the crash/ })).toHaveAttribute('href', 'https://github.com/acme/app/pull/43');
    expect(screen.getByText('#44 Script link')).toBeInTheDocument();
    expect(screen.getByText('#45 Data link')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /#44|#45/ })).toBeNull();
    expect([...document.querySelectorAll('a[href]')].map((anchor) => anchor.getAttribute('href')).filter((href) => /^\s*(javascript|data):/i.test(href ?? ''))).toEqual([]);
  });

  it('applies the filters through the URL, starting again at page 1, and clears them', async () => {
    const requested = stubApi(fetchMock, (url) =>
      jsonResponse(url.searchParams.get('q') ? { page: 1, per_page: 25, total: 0, items: [] } : { page: 2, per_page: 25, total: 30, items: [ISSUE] }),
    );
    const { router } = renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items', url: '/work-items?page=2' });
    await screen.findByRole('link', { name: /#42/ });
    expect(requested.at(-1)?.searchParams.get('page')).toBe('2');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Title, author or #number' }), { target: { value: ' nothing ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'issue' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'open' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(router.state.location.search).toBe('?q=nothing&kind=issue&state=open');
    expect(await screen.findByText('No issues or pull requests match.')).toBeInTheDocument();
    const last = requested.at(-1);
    expect(Object.fromEntries(last?.searchParams ?? [])).toEqual({ page: '1', per_page: '25', q: 'nothing', kind: 'issue', state: 'open' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    });
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Title, author or #number' })).toHaveValue('');
  });

  it('says when nothing has arrived yet, and shows the service error with a retry', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 0, items: [] }));
    const first = renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items' });
    expect(await screen.findByText('No issues or pull requests yet. They appear here as GitHub reports them.')).toBeInTheDocument();
    first.unmount();
    stubApi(fetchMock, () => jsonResponse({ error_code: 'internal', message: 'database unavailable' }, 500));
    renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items' });
    expect(await screen.findByText('database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows Chinese strings', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 1, items: [PULL] }));
    renderWithProviders(<WorkItemsPage />, { resources, path: '/work-items', language: 'zh-CN' });
    expect(await screen.findByRole('heading', { name: 'Issue 与拉取请求' })).toBeInTheDocument();
    expect(await screen.findByText('已合并')).toBeInTheDocument();
  });
});
