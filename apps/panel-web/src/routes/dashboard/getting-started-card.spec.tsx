import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { GettingStartedCard } from './getting-started-card';

const resources = { en, zh };

interface State {
  apiId: number | null;
  hashSet: boolean;
  accounts: number;
  tasks: number;
  tests: Array<{ channel: string; ok: boolean }>;
}

function serve(state: State) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/config/settings') return jsonResponse({ timezone: 'UTC', telegram_api_id: state.apiId, telegram_api_hash_set: state.hashSet });
      if (path === '/api/accounts') return jsonResponse({ accounts: [], total: state.accounts });
      if (path === '/api/sign-tasks') return jsonResponse({ tasks: [], total: state.tasks });
      if (path === '/api/config/notifications/tests') return jsonResponse({ tests: state.tests });
      return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
    }),
  );
}

describe('GettingStartedCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts a new install at the Telegram API credentials, each open step linking to where it is done', async () => {
    serve({ apiId: null, hashSet: false, accounts: 0, tasks: 0, tests: [] });
    renderWithProviders(<GettingStartedCard />, { resources });
    expect(await screen.findByRole('heading', { name: 'Getting started' })).toBeTruthy();
    expect(screen.getByText('0 of 4 done')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the Telegram API settings' }).getAttribute('href')).toBe('/settings?tab=telegram');
    expect(screen.getByRole('link', { name: 'Add an account' }).getAttribute('href')).toBe('/accounts?add=phone');
    expect(screen.getByRole('link', { name: 'Create a task' }).getAttribute('href')).toBe('/tasks/new');
    expect(screen.getByRole('link', { name: 'Open the notification settings' }).getAttribute('href')).toBe('/settings?tab=notifications');
  });

  it('reads each step from the real state: a failed test is not a tested notification', async () => {
    serve({ apiId: 12345, hashSet: true, accounts: 1, tasks: 0, tests: [{ channel: 'bark', ok: false }] });
    renderWithProviders(<GettingStartedCard />, { resources });
    expect(await screen.findByText('2 of 4 done')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open the Telegram API settings' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add an account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Create a task' })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Hide steps' }));
    expect(screen.getByRole('button', { name: 'Show steps' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('is gone once every step is done', async () => {
    serve({ apiId: 12345, hashSet: true, accounts: 1, tasks: 2, tests: [{ channel: 'bot', ok: true }] });
    const { queryClient } = renderWithProviders(<GettingStartedCard />, { resources });
    // A state it can name: all four answers are in the cache (and the card has rendered with them).
    await waitFor(() => {
      for (const key of [['settings'], ['accounts'], ['tasks'], ['notification-tests']]) expect(queryClient.getQueryState(key)?.status).toBe('success');
    });
    expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
