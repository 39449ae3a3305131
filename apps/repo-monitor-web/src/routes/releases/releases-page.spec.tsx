import { act, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { ReleasesPage } from './releases-page';
import { readReleasesQuery, writeReleasesQuery } from './releases-query';

const resources = { en, zh };

function list(overrides: Record<string, unknown> = {}) {
  return {
    page: 1,
    per_page: 25,
    total: 2,
    username: 'octocat',
    list_checked_at: '2026-11-25T16:30:00Z',
    items: [
      {
        repository_full_name: 'nodejs/node',
        repository_url: 'https://github.com/nodejs/node',
        last_release_tag: '<b>v24.0.0</b>',
        last_release_url: 'https://github.com/nodejs/node/releases/tag/%3Cb%3Ev24.0.0%3C%2Fb%3E',
        last_checked_at: '2026-11-25T17:00:00Z',
      },
      { repository_full_name: 'acme/quiet', repository_url: 'https://github.com/acme/quiet', last_release_tag: null, last_release_url: null, last_checked_at: null },
    ],
    ...overrides,
  };
}

/** Answers the settings (time zone) and the starred releases list; records the list requests. */
function stubApi(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, body: (url: URL) => Response) {
  const requested: URL[] = [];
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'Asia/Shanghai' });
    requested.push(url);
    return body(url);
  });
  return requested;
}

describe('ReleasesPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the starred user, when the list was fetched, and each repository with its latest release linking to GitHub in a new tab', async () => {
    stubApi(fetchMock, () => jsonResponse(list()));
    renderWithProviders(<ReleasesPage />, { resources, path: '/releases' });
    expect(await screen.findByText('Repositories starred by octocat on GitHub, with the latest release seen in each.')).toBeInTheDocument();
    // 16:30 UTC is past midnight in Shanghai: the configured zone is used.
    expect(await screen.findByText('Starred list last fetched: 2026-11-26 00:30:00')).toBeInTheDocument();
    const repository = screen.getByRole('link', { name: /nodejs\/node/ });
    expect(repository).toHaveAttribute('href', 'https://github.com/nodejs/node');
    expect(repository).toHaveAttribute('target', '_blank');
    expect(repository).toHaveAttribute('rel', 'noopener noreferrer');
    expect(repository).toHaveTextContent('(opens in a new tab)');
    // A tag from GitHub is text, never markup.
    const release = screen.getByRole('link', { name: /<b>v24\.0\.0<\/b>/ });
    expect(release).toHaveAttribute('href', 'https://github.com/nodejs/node/releases/tag/%3Cb%3Ev24.0.0%3C%2Fb%3E');
    expect(document.querySelector('a b')).toBeNull();
    const quiet = screen.getByRole('row', { name: /acme\/quiet/ });
    expect(within(quiet).getByText('None seen yet')).toBeInTheDocument();
    expect(within(quiet).getByText('Not checked yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change the starred user in Settings' })).toHaveAttribute('href', '/settings');
  });

  it('explains where the starred user is set when tracking is off', async () => {
    stubApi(fetchMock, () => jsonResponse(list({ username: null, list_checked_at: null, items: [], total: 0 })));
    renderWithProviders(<ReleasesPage />, { resources, path: '/releases' });
    expect(await screen.findByText('Starred releases are off')).toBeInTheDocument();
    expect(screen.getByText(/Set a starred user in Settings under General/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('says when the starred list has not been fetched yet', async () => {
    stubApi(fetchMock, () => jsonResponse(list({ list_checked_at: null, items: [], total: 0 })));
    renderWithProviders(<ReleasesPage />, { resources, path: '/releases' });
    expect(await screen.findByText('No starred repositories yet')).toBeInTheDocument();
    expect(screen.getByText(/has not been fetched yet/)).toBeInTheDocument();
  });

  it('searches on the server with the text kept in the URL, starting again at page 1', async () => {
    const requested = stubApi(fetchMock, (url) => jsonResponse(url.searchParams.get('q') ? list({ items: [], total: 0 }) : list({ page: 3, total: 80 })));
    const { router } = renderWithProviders(<ReleasesPage />, { resources, path: '/releases', url: '/releases?page=3' });
    await screen.findByRole('link', { name: /nodejs\/node/ });
    expect(requested.at(-1)?.searchParams.get('page')).toBe('3');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search repositories' }), { target: { value: '  zzz ' } });
    expect(await screen.findByText('No repository matches “zzz”', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=zzz');
    expect(requested.at(-1)?.searchParams.get('q')).toBe('zzz');
    expect(requested.at(-1)?.searchParams.get('page')).toBe('1');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    });
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Search repositories' })).toHaveValue('');
  });

  it('shows the service error with a retry', async () => {
    stubApi(fetchMock, () => jsonResponse({ error_code: 'internal', message: 'database unavailable' }, 500));
    renderWithProviders(<ReleasesPage />, { resources, path: '/releases' });
    expect(await screen.findByText('database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows Chinese strings', async () => {
    stubApi(fetchMock, () => jsonResponse(list()));
    renderWithProviders(<ReleasesPage />, { resources, path: '/releases', language: 'zh-CN' });
    expect(await screen.findByRole('heading', { name: '星标仓库发布' })).toBeInTheDocument();
    expect(await screen.findByText('octocat 在 GitHub 上加星标的仓库，以及每个仓库最新的发布。')).toBeInTheDocument();
  });
});

describe('releases URL query', () => {
  it('ignores a bad page or an over-long search and drops page 1 from the URL', () => {
    expect(readReleasesQuery(new URLSearchParams('page=-2&q=' + 'x'.repeat(201)))).toEqual({ page: 1, q: undefined });
    expect(readReleasesQuery(new URLSearchParams('page=4&q=%20node%20'))).toEqual({ page: 4, q: 'node' });
    expect(writeReleasesQuery({ page: 4, q: 'node' }, { page: 1 }).toString()).toBe('q=node');
    expect(writeReleasesQuery({ page: 4, q: 'node' }, { q: 'deno' }).toString()).toBe('q=deno');
    expect(writeReleasesQuery({ page: 4, q: 'node' }, { page: 5 }).toString()).toBe('q=node&page=5');
  });
});
