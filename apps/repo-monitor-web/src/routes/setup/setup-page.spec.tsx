import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { en, zh } from '../../i18n/resources';
import { setupProblems } from './setup-form';
import { SetupPage } from './setup-page';

const resources = { en, zh };

describe('setupProblems', () => {
  it('checks the user name, the length of the password and the repeat', () => {
    expect(setupProblems({ username: 'admin', password: 'long-enough-pw', repeat: 'long-enough-pw' })).toEqual({});
    expect(setupProblems({ username: 'a b', password: 'short', repeat: 'short' })).toEqual({ username: 'usernameInvalid', password: 'passwordLength' });
    expect(setupProblems({ username: 'admin', password: 'long-enough-pw', repeat: 'long-enough-px' })).toEqual({ repeat: 'mismatch' });
    expect(setupProblems({ username: 'admin', password: 'x'.repeat(257), repeat: 'x'.repeat(257) })).toEqual({ password: 'passwordLength' });
  });
});

describe('SetupPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    session.signOut();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('creates the admin, signs in with the same password and opens the dashboard', async () => {
    const seen: { method: string; path: string; body: unknown }[] = [];
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      seen.push({ method: request.method, path, body: request.method === 'POST' ? await request.clone().json() : undefined });
      if (path === '/api/v1/setup/status') return jsonResponse({ admin_exists: false, setup_allowed: true, remote_setup_allowed: false });
      if (path === '/api/v1/setup') return jsonResponse({ username: 'owner' }, 201);
      return jsonResponse({ username: 'owner', csrf_token: 'csrf-setup', expires_at: '2026-11-26T00:00:00Z' });
    });
    renderWithProviders(<SetupPage />, { resources, path: '/setup', routes: [{ path: '/dashboard', element: <p>dashboard</p> }] });
    const username = await screen.findByLabelText(/User name/);
    await userEvent.clear(username);
    await userEvent.type(username, 'owner');
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.type(screen.getByLabelText(/Repeat the password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Create and sign in' }));
    expect(await screen.findByText('Use 12 to 256 characters.')).toBeInTheDocument();
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);

    await userEvent.clear(screen.getByLabelText(/^Password/));
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-long-password');
    await userEvent.clear(screen.getByLabelText(/Repeat the password/));
    await userEvent.type(screen.getByLabelText(/Repeat the password/), 'a-long-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create and sign in' }));
    await screen.findByText('dashboard');
    expect(seen.filter((request) => request.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/v1/setup', body: { username: 'owner', password: 'a-long-password' } },
      { method: 'POST', path: '/api/v1/auth/login', body: { username: 'owner', password: 'a-long-password' } },
    ]);
    expect(session.csrfToken).toBe('csrf-setup');
  });

  it('from a remote client says why setup is refused and which variables to set, with no form', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ admin_exists: false, setup_allowed: false, remote_setup_allowed: false }));
    renderWithProviders(<SetupPage />, { resources, path: '/setup' });
    const alert = (await screen.findByText('Setup is only allowed from the server itself')).closest('[role="alert"]');
    expect(alert).toHaveTextContent('MONITOR_SETUP_ALLOW_REMOTE=true');
    expect(alert).toHaveTextContent('MONITOR_ADMIN_PASSWORD');
    expect(screen.queryByRole('button', { name: 'Create and sign in' })).toBeNull();
  });

  it('once an admin exists, points to the sign-in', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ admin_exists: true, setup_allowed: false, remote_setup_allowed: false }));
    renderWithProviders(<SetupPage />, { resources, path: '/setup' });
    expect(await screen.findByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });
});
