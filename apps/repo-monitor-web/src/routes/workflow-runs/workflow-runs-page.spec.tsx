import { act, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { runFilterFromParams, runFilterToParams, runQuery } from './workflow-run-filter';
import { WorkflowRunsPage } from './workflow-runs-page';

const resources = { en, zh };

const FAILED = {
  id: 1,
  repository_id: 7,
  run_id: 9001,
  workflow_name: 'CI <script>',
  head_branch: 'main',
  head_sha: 'abcdef0123456789',
  status: 'completed',
  conclusion: 'failure',
  failed: true,
  run_attempt: 2,
  html_url: 'https://github.com/acme/app/actions/runs/9001',
  updated_at: '2026-11-25T16:30:00Z',
};
const PASSED = { ...FAILED, id: 2, run_id: 9002, workflow_name: 'Lint', conclusion: 'success', failed: false, run_attempt: 1, html_url: 'https://github.com/acme/app/actions/runs/9002' };
const RUNNING = { ...FAILED, id: 3, run_id: 9003, workflow_name: 'Deploy', status: 'in_progress', conclusion: null, failed: false, run_attempt: 1, head_branch: null, head_sha: null };

function stubApi(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, body: (url: URL) => Response) {
  const requested: URL[] = [];
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
    if (url.pathname === '/api/v1/repositories') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 7, full_name: 'acme/app' }] });
    requested.push(url);
    return body(url);
  });
  return requested;
}

describe('workflow run filter', () => {
  it('reads the URL, dropping what the API would refuse, and writes it back', () => {
    const filter = runFilterFromParams(new URLSearchParams('q=main&status=completed&conclusion=timed_out&repository=7&page=3'));
    expect(filter).toEqual({ page: 3, q: 'main', status: 'completed', conclusion: 'timed_out', repositoryId: 7 });
    expect(runFilterToParams(filter).toString()).toBe('q=main&status=completed&conclusion=timed_out&repository=7&page=3');
    expect(runQuery(filter)).toEqual({ page: 3, per_page: 25, q: 'main', status: 'completed', conclusion: 'timed_out', repository_id: 7 });
    expect(runFilterFromParams(new URLSearchParams('status=done&conclusion=bad&page=1.5&repository=0'))).toEqual({ page: 1, q: '', status: '', conclusion: '', repositoryId: null });
  });
});

describe('WorkflowRunsPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('lists runs, marking failed ones, with links opening GitHub in a new tab', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 3, items: [FAILED, PASSED, RUNNING] }));
    renderWithProviders(<WorkflowRunsPage />, { resources, path: '/workflow-runs' });
    const failedLink = await screen.findByRole('link', { name: /CI <script> \(attempt 2\)/ });
    expect(failedLink).toHaveAttribute('href', 'https://github.com/acme/app/actions/runs/9001');
    expect(failedLink).toHaveAttribute('target', '_blank');
    expect(document.querySelector('a script')).toBeNull();
    const failed = screen.getByRole('row', { name: /CI <script>/ });
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('abcdef0')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Lint/ })).getByText('Succeeded')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Deploy/ })).getByText('In progress')).toBeInTheDocument();
  });

  it('applies status, conclusion and search through the URL and asks the API for them', async () => {
    const requested = stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 1, items: [FAILED] }));
    const { router } = renderWithProviders(<WorkflowRunsPage />, { resources, path: '/workflow-runs' });
    await screen.findByRole('link', { name: /CI <script>/ });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Workflow, branch or commit' }), { target: { value: 'main' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'completed' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Conclusion' }), { target: { value: 'failure' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(router.state.location.search).toBe('?q=main&status=completed&conclusion=failure');
    await screen.findByRole('button', { name: 'Clear filters' });
    expect(Object.fromEntries(requested.at(-1)?.searchParams ?? [])).toEqual({ page: '1', per_page: '25', q: 'main', status: 'completed', conclusion: 'failure' });
  });

  it('shows Chinese strings', async () => {
    stubApi(fetchMock, () => jsonResponse({ page: 1, per_page: 25, total: 1, items: [FAILED] }));
    renderWithProviders(<WorkflowRunsPage />, { resources, path: '/workflow-runs', language: 'zh-CN' });
    expect(await screen.findByRole('heading', { name: '工作流运行' })).toBeInTheDocument();
    expect(await screen.findByText('失败')).toBeInTheDocument();
  });
});
