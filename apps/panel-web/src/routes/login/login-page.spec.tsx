import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { en, zh } from '../../i18n/all';
import { LoginPage } from './login-page';

const resources = { en, zh };

describe('LoginPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    session.logOut();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    vi.useRealTimers();
  });

  it('asks for the TOTP code when the service requires it, then logs in and returns to the page', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ statusCode: 401, error: 'Unauthorized', message: 'TOTP code required', code: 'totp_required' }, 401))
      .mockResolvedValueOnce(jsonResponse({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }));
    const { router } = renderWithProviders(<LoginPage />, { resources, path: '/login', url: '/login?next=%2Fhits%3Fq%3Dx', routes: [{ path: '/hits', element: <p>hits page</p> }] });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText(/Authenticator code/);
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the code from your authenticator app.');
    await waitFor(() => expect(code).toHaveFocus());
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('hits page');
    expect(router.state.location.pathname + router.state.location.search).toBe('/hits?q=x');
    expect(session.token).toBe('tok');
    const second = fetchMock.mock.calls[1][0] as Request;
    expect(await second.clone().json()).toEqual({ username: 'admin', password: 'secret-pass', totp_code: '123456' });
  });

  it('shows the throttle as a countdown and keeps the button disabled until it ends', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ statusCode: 429, error: 'Too Many Requests', message: 'Too many failed logins', code: 'rate_limited' }, 429, { 'retry-after': '2' }));
    renderWithProviders(<LoginPage />, { resources, path: '/login' });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Too many failed attempts. Try again in 2 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await screen.findByText('Too many failed attempts. Try again in 1 s.', undefined, { timeout: 2000 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled(), { timeout: 2500 });
  });

  it('never sends the person to another site after login', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }));
    const { router } = renderWithProviders(<LoginPage />, { resources, path: '/login', url: '/login?next=%2F%2Fevil.example', routes: [{ path: '/dashboard', element: <p>dash</p> }] });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('dash');
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
