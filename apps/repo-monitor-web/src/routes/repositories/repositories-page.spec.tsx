import { act, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { RepositoriesPage } from './repositories-page';

const resources = { en, zh };

function repository(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    full_name: 'acme/<b>app</b>',
    html_url: 'https://github.com/acme/app',
    private: true,
    source: 'installation',
    installation_id: 7,
    status: 'active',
    notify: {
      issues: true,
      pull_requests: false,
      workflow_runs: true,
      security_alerts: true,
      releases: false,
      stars: false,
    },
    baseline_imported_at: null,
    created_at: '2026-11-25T10:00:00Z',
    updated_at: '2026-11-25T10:00:00Z',
    ...overrides,
  };
}

interface Call {
  method: string;
  url: URL;
  body: unknown;
}

/** A stand-in API: lists, external access (`external` still watched, `tokenConfigured`), and whatever `write` answers to writes. */
function stubApi(
  fetchMock: ReturnType<typeof vi.fn<typeof fetch>>,
  options: {
    external?: number;
    tokenConfigured?: boolean;
    items?: unknown[];
    write?: (call: Call) => Response;
  } = {},
) {
  const calls: Call[] = [];
  fetchMock.mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
    const url = new URL(request.url, 'http://localhost');
    const text = request.method === 'GET' ? '' : await request.text();
    const call = {
      method: request.method,
      url,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
    if (request.method === 'GET' && url.pathname === '/api/v1/repositories/external') {
      return jsonResponse({ token_configured: options.tokenConfigured ?? true, count: options.external ?? 0, limit: 20 });
    }
    if (request.method === 'GET' && url.pathname === '/api/v1/repositories') {
      const items = options.items ?? [repository()];
      return jsonResponse({
        page: Number(url.searchParams.get('page') ?? 1),
        per_page: 25,
        total: items.length,
        items,
      });
    }
    return options.write ? options.write(call) : jsonResponse({ error_code: 'not_found', message: 'no route' }, 404);
  });
  return calls;
}

describe('RepositoriesPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows each repository as text with its source, status and switches, and asks the API with the URL filters', async () => {
    const calls = stubApi(fetchMock, { external: 3 });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
      url: '/repositories?q=acme&source=installation&page=2',
    });
    const link = await screen.findByRole('link', { name: /acme\/<b>app<\/b>/ });
    expect(link).toHaveAttribute('href', 'https://github.com/acme/app');
    expect(document.querySelector('a b')).toBeNull();
    const list = calls.find((call) => call.url.pathname === '/api/v1/repositories' && call.url.searchParams.get('per_page') === '25');
    expect(Object.fromEntries(list?.url.searchParams ?? [])).toEqual({
      page: '2',
      per_page: '25',
      q: 'acme',
      source: 'installation',
    });
    const row = screen.getByRole('row', { name: /acme\/<b>app<\/b>/ });
    expect(within(row).getByText('GitHub App')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(
      within(row).getByRole('checkbox', {
        name: 'Notify about Issues in acme/<b>app</b>',
      }),
    ).toBeChecked();
    expect(
      within(row).getByRole('checkbox', {
        name: 'Notify about Pull requests in acme/<b>app</b>',
      }),
    ).not.toBeChecked();
    expect(await screen.findByText(/3 of 20 external repositories/)).toBeInTheDocument();
  });

  it('applies the filters to the URL, starting again at page 1', async () => {
    stubApi(fetchMock);
    const { router } = renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
      url: '/repositories?page=4',
    });
    await screen.findByRole('link', { name: /acme/ });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search owner/name' }), { target: { value: '  node ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Source' }), {
      target: { value: 'external' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(router.state.location.search).toBe('?q=node&source=external');
  });

  it('saves a switch with PATCH of that kind only', async () => {
    const calls = stubApi(fetchMock, {
      write: () =>
        jsonResponse(
          repository({
            notify: { ...repository().notify, pull_requests: true },
          }),
        ),
    });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    await act(async () => {
      fireEvent.click(
        await screen.findByRole('checkbox', {
          name: 'Notify about Pull requests in acme/<b>app</b>',
        }),
      );
    });
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.url.pathname).toBe('/api/v1/repositories/1');
    expect(patch?.body).toEqual({ pull_requests: true });
  });

  it('stops watching only after the confirmation naming the repository', async () => {
    const calls = stubApi(fetchMock, {
      write: () => jsonResponse(repository({ status: 'removed' })),
    });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Stop watching acme/<b>app</b>',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Stop watching acme/<b>app</b>?',
    });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Stop watching' }));
    });
    await vi.waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/api/v1/repositories/1'));
  });

  it('adds an external repository, refusing a malformed name before asking the API', async () => {
    const calls = stubApi(fetchMock, {
      write: (call) =>
        jsonResponse(
          repository({
            id: 9,
            full_name: (call.body as { full_name: string }).full_name,
            source: 'external',
          }),
          201,
        ),
    });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    const input = await screen.findByRole('textbox', {
      name: 'Repository (owner/name)',
    });
    fireEvent.change(input, { target: { value: 'octocat' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    });
    expect(screen.getByText('Enter owner/name, e.g. octocat/Hello-World.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.change(input, {
      target: { value: 'https://github.com/octocat/Hello-World' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    });
    await vi.waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        full_name: 'octocat/Hello-World',
      }),
    );
    await vi.waitFor(() => expect(input).toHaveValue(''));
  });

  it('says under the field why GitHub refused, in plain words for each reason', async () => {
    const refusals: Array<[Record<string, unknown>, number, Record<string, string>, string]> = [
      [{ error_code: 'not_found', message: 'no public repository with that name', details: { reason: 'not_found' } }, 404, {}, 'GitHub has no public repository octocat/nope. Check the owner and the name.'],
      [{ error_code: 'service_unavailable', message: 'GitHub could not be reached', details: { reason: 'unreachable' } }, 503, {}, 'GitHub could not be reached from the server. Check its network connection or HTTPS_PROXY, then try again.'],
      [{ error_code: 'rate_limited', message: 'rate limit', details: { reason: 'rate_limited' } }, 429, { 'retry-after': '61' }, 'GitHub\u2019s rate limit for the token is reached. Try again in 2 minutes.'],
      [{ error_code: 'conflict', message: 'refused', details: { reason: 'token_rejected' } }, 409, {}, 'GitHub refused the token in MONITOR_EXTERNAL_PAT: it may be expired or revoked. Set a new one and restart repo-monitor.'],
    ];
    let next = 0;
    stubApi(fetchMock, {
      write: () => {
        const [body, status, headers] = refusals[next++] as (typeof refusals)[number];
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
      },
    });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    const input = await screen.findByRole('textbox', { name: 'Repository (owner/name)' });
    for (const [, , , sentence] of refusals) {
      fireEvent.change(input, { target: { value: 'octocat/nope' } });
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Add' }));
      });
      expect(await screen.findByText(sentence)).toBeInTheDocument();
    }
  });

  it('explains MONITOR_EXTERNAL_PAT instead of offering the form while it is unset', async () => {
    stubApi(fetchMock, { tokenConfigured: false });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    expect(await screen.findByText('Adding public repositories needs a GitHub token')).toBeInTheDocument();
    expect(screen.getByText('MONITOR_EXTERNAL_PAT')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Repository (owner/name)' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });

  it('disables adding at 20 external repositories', async () => {
    stubApi(fetchMock, { external: 20 });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
    });
    expect(await screen.findByText(/20 of 20 external repositories/)).toBeInTheDocument();
    expect(screen.getByText(/The limit of 20 external repositories is reached/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Repository (owner/name)' })).toBeDisabled();
  });

  it('shows the empty state and Chinese strings', async () => {
    stubApi(fetchMock, { items: [] });
    renderWithProviders(<RepositoriesPage />, {
      resources,
      path: '/repositories',
      language: 'zh-CN',
    });
    expect(await screen.findByRole('heading', { name: '仓库' })).toBeInTheDocument();
    expect(await screen.findByText(/还没有仓库/)).toBeInTheDocument();
  });
});
