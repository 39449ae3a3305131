import { act, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { alertFilterFromParams, alertFilterToParams, alertQuery } from './security-alert-filter';
import { SecurityAlertsPage } from './security-alerts-page';

const resources = { en, zh };

const DEPENDABOT = {
  id: 1,
  repository_id: 7,
  kind: 'dependabot',
  number: 3,
  state: 'open',
  severity: 'critical',
  summary: '<img src=x onerror=alert(1)> prototype pollution in lodash',
  html_url: 'https://github.com/acme/app/security/dependabot/3',
  ignored: false,
  updated_at: '2026-11-25T16:30:00Z',
};
const SECRET = { ...DEPENDABOT, id: 2, kind: 'secret_scanning', number: 9, state: 'resolved', severity: null, summary: 'GitHub personal access token', ignored: true, html_url: 'https://github.com/acme/app/security/secret-scanning/9' };

function stubApi(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, body: (url: URL) => Response) {
  const requested: Array<{ url: URL; method: string; body?: unknown }> = [];
  fetchMock.mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), 'http://localhost');
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'Asia/Shanghai' });
    if (url.pathname === '/api/v1/repositories') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 7, full_name: 'acme/app' }] });
    const method = request?.method ?? init?.method ?? 'GET';
    const text = request && method !== 'GET' ? await request.clone().text() : undefined;
    requested.push({ url, method, body: text ? JSON.parse(text) : undefined });
    return body(url);
  });
  return requested;
}

describe('security alert filter', () => {
  it('reads the URL, dropping what the API would refuse, and writes it back', () => {
    const filter = alertFilterFromParams(new URLSearchParams('q=%20lodash%20&kind=dependabot&state=open&severity=high&ignored=no&repository=3&page=2'));
    expect(filter).toEqual({ page: 2, q: 'lodash', kind: 'dependabot', state: 'open', severity: 'high', ignored: 'no', repositoryId: 3 });
    expect(alertFilterToParams(filter).toString()).toBe('q=lodash&kind=dependabot&state=open&severity=high&ignored=no&repository=3&page=2');
    expect(alertQuery(filter)).toEqual({ page: 2, per_page: 25, q: 'lodash', kind: 'dependabot', state: 'open', severity: 'high', ignored: false, repository_id: 3 });
    expect(alertFilterFromParams(new URLSearchParams('kind=npm&state=gone&severity=x&ignored=maybe&page=0&repository=-1&q=' + 'x'.repeat(300)))).toEqual({
      page: 1,
      q: 'x'.repeat(200),
      kind: '',
      state: '',
      severity: '',
      ignored: '',
      repositoryId: null,
    });
    expect(alertQuery(alertFilterFromParams(new URLSearchParams('ignored=yes')))).toEqual({ page: 1, per_page: 25, ignored: true });
  });
});

describe('SecurityAlertsPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('lists alerts with GitHub text as text, translated kinds, states and severities, in the configured time zone', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 2, items: [DEPENDABOT, SECRET] }));
    renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts' });
    const link = await screen.findByRole('link', { name: /#3 <img src=x onerror=alert\(1\)> prototype pollution/ });
    expect(link).toHaveAttribute('href', 'https://github.com/acme/app/security/dependabot/3');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(document.querySelector('a img')).toBeNull();
    const dependabot = screen.getByRole('row', { name: /prototype pollution/ });
    expect(within(dependabot).getByText('Critical')).toBeInTheDocument();
    expect(within(dependabot).getByText('Open')).toBeInTheDocument();
    expect(within(dependabot).getByText('2026-11-26 00:30:00')).toBeInTheDocument();
    const secret = screen.getByRole('row', { name: /personal access token/ });
    expect(within(secret).getByText('Secret scanning')).toBeInTheDocument();
    expect(within(secret).getByText('Resolved')).toBeInTheDocument();
    expect(within(secret).getByText('Ignored')).toBeInTheDocument();
    expect(within(secret).getByText('None')).toBeInTheDocument();
  });

  it('ignores an alert after confirmation and stops ignoring it, showing each result', async () => {
    let current = { ...DEPENDABOT };
    const requested = stubApi(fetchMock, (url) => {
      if (url.pathname === '/api/v1/security-alerts/1') {
        const ignored = (requested.at(-1)?.body as { ignored: boolean }).ignored;
        current = { ...current, ignored };
        return jsonResponse(current);
      }
      return jsonResponse({ page: 1, per_page: 25, total: 1, items: [current] });
    });
    renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts' });
    fireEvent.click(await screen.findByRole('button', { name: 'Ignore alert #3: no more notifications for it' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ignore this alert?' });
    expect(requested.some((request) => request.method === 'PATCH')).toBe(false);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Ignore' }));
    });
    expect(await screen.findByText('Alert #3 is ignored: no more notifications for it')).toBeInTheDocument();
    expect(requested.find((request) => request.method === 'PATCH')?.body).toEqual({ ignored: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Stop ignoring alert #3: notify about it again' }));
    expect(await screen.findByText('Alert #3 notifies again')).toBeInTheDocument();
    expect(requested.filter((request) => request.method === 'PATCH').at(-1)?.body).toEqual({ ignored: false });
    expect(await screen.findByRole('button', { name: 'Ignore alert #3: no more notifications for it' })).toBeInTheDocument();
  });

  it('applies the filters through the URL, starting again at page 1, and clears them', async () => {
    const requested = stubApi(fetchMock, (url) =>
      jsonResponse(url.searchParams.get('q') ? { page: 1, per_page: 25, total: 0, items: [] } : { page: 2, per_page: 25, total: 30, items: [DEPENDABOT] }),
    );
    const { router } = renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts', url: '/security-alerts?page=2' });
    await screen.findByRole('link', { name: /#3/ });
    expect(requested.at(-1)?.url.searchParams.get('page')).toBe('2');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Summary or alert number' }), { target: { value: ' nothing ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Severity' }), { target: { value: 'high' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Notifications' }), { target: { value: 'yes' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(router.state.location.search).toBe('?q=nothing&severity=high&ignored=yes');
    expect(await screen.findByText('No security alerts match.')).toBeInTheDocument();
    expect(Object.fromEntries(requested.at(-1)?.url.searchParams ?? [])).toEqual({ page: '1', per_page: '25', q: 'nothing', severity: 'high', ignored: 'true' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    });
    expect(router.state.location.search).toBe('');
  });

  it('says when there are none, shows the service error with a retry, and speaks Chinese', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 0, items: [] }));
    const first = renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts' });
    expect(await screen.findByText(/No security alerts\. Dependabot/)).toBeInTheDocument();
    first.unmount();
    stubApi(fetchMock, () => jsonResponse({ error_code: 'internal', message: 'database unavailable' }, 500));
    const second = renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts' });
    expect(await screen.findByText('database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    second.unmount();
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 1, items: [SECRET] }));
    renderWithProviders(<SecurityAlertsPage />, { resources, path: '/security-alerts', language: 'zh-CN' });
    expect(await screen.findByRole('heading', { name: '安全警报' })).toBeInTheDocument();
    expect(await screen.findByText('已解决')).toBeInTheDocument();
  });
});
