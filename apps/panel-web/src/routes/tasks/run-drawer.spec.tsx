import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { RunDrawer } from './run-drawer';

describe('RunDrawer', () => {
  let runResponse: () => Response;
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const path = new URL(request.url).pathname;
        if (path === '/api/accounts') return jsonResponse({ accounts: [], total: 0 });
        if (path === '/api/sign-tasks/nightly/run' && request.method === 'POST') return runResponse();
        if (path === '/api/sign-tasks/nightly/run/status') return jsonResponse({ state: 'idle', runs: [] });
        if (path === '/api/sign-tasks/nightly/history') return jsonResponse({ history: [] });
        if (path === '/api/sign-tasks/nightly') return jsonResponse({ name: 'nightly', account_names: ['*'], enabled: true });
        return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the reason a run did not start in the drawer until the next try', async () => {
    runResponse = () => jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'Task nightly has no account to run for' }, 400);
    renderWithProviders(<RunDrawer name="nightly" onClose={() => undefined} />, { resources: { en, zh } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The run did not start');
    expect(alert).toHaveTextContent('Task nightly has no account to run for');

    runResponse = () => jsonResponse({ runs: [{ account_name: 'alice' }] });
    await user.click(screen.getByRole('button', { name: 'Run now' }));
    await vi.waitFor(() => expect(screen.queryByText('The run did not start')).not.toBeInTheDocument());
  });
});
