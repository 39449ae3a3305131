import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { en, zh } from '../../i18n/resources';
import { LoginPage } from './login-page';

const resources = { en, zh };
const adminExists = { admin_exists: true, setup_allowed: false, remote_setup_allowed: false };

/** Answers GET /api/v1/setup/status, and each login with the next of `logins`. */
function stubService(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, logins: Response[], status = adminExists) {
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    if (new URL(request.url).pathname === '/api/v1/setup/status') return jsonResponse(status);
    const next = logins.shift();
    if (!next) throw new Error(`unexpected request ${request.method} ${request.url}`);
    return next;
  });
}

function loginCalls(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>): Request[] {
  return fetchMock.mock.calls.map(([input]) => input as Request).filter((request) => new URL(request.url).pathname === '/api/v1/auth/login');
}

describe('LoginPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    session.signOut();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('signs in, keeps the CSRF token and returns to the page the person came from', async () => {
    stubService(fetchMock, [jsonResponse({ username: 'admin', csrf_token: 'csrf-1', expires_at: '2026-11-26T00:00:00Z' })]);
    const { router } = renderWithProviders(<LoginPage />, { resources, path: '/login', url: '/login?next=%2Fevents%3Fkind%3Dpush', routes: [{ path: '/events', element: <p>events page</p> }] });
    await userEvent.type(screen.getByLabelText(/Username/), ' admin ');
    await userEvent.type(screen.getByLabelText(/^Password/), 'correct-horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('events page');
    expect(router.state.location.pathname + router.state.location.search).toBe('/events?kind=push');
    expect(session.csrfToken).toBe('csrf-1');
    expect(localStorage.getItem('monitor.csrf')).toBe('csrf-1');
    const [login] = loginCalls(fetchMock);
    expect(await login.clone().json()).toEqual({ username: 'admin', password: 'correct-horse' });
  });

  it('says the credentials are wrong on 401 and stays on the page', async () => {
    stubService(fetchMock, [jsonResponse({ error_code: 'invalid_credentials', message: 'wrong user name or password' }, 401)]);
    renderWithProviders(<LoginPage />, { resources, path: '/login' });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong user name or password.');
    expect(session.csrfToken).toBeNull();
  });

  it('counts down from Retry-After and keeps the button disabled until then', async () => {
    stubService(fetchMock, [jsonResponse({ error_code: 'rate_limited', message: 'too many failed sign-ins' }, 429, { 'retry-after': '2' })]);
    renderWithProviders(<LoginPage />, { resources, path: '/login' });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Too many failed attempts. Try again in 2 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await screen.findByText('Too many failed attempts. Try again in 1 s.', undefined, { timeout: 2500 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled(), { timeout: 2500 });
  });

  it('counts a long wait in minutes and seconds', async () => {
    stubService(fetchMock, [jsonResponse({ error_code: 'rate_limited', message: 'too many failed sign-ins' }, 429, { 'retry-after': '894' })]);
    renderWithProviders(<LoginPage />, { resources, path: '/login' });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Too many failed attempts. Try again in 14 min 54 s.')).toBeInTheDocument();
  });

  it('asks for both fields before sending anything', async () => {
    stubService(fetchMock, []);
    renderWithProviders(<LoginPage />, { resources, path: '/login' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(loginCalls(fetchMock)).toHaveLength(0);
  });

  it('sends a first run (no admin yet) to the setup page', async () => {
    stubService(fetchMock, [], { admin_exists: false, setup_allowed: true, remote_setup_allowed: false });
    renderWithProviders(<LoginPage />, { resources, path: '/login', routes: [{ path: '/setup', element: <p>setup page</p> }] });
    await screen.findByText('setup page');
  });

  it('never sends the person to another site after signing in', async () => {
    stubService(fetchMock, [jsonResponse({ username: 'admin', csrf_token: 'c', expires_at: '2026-11-26T00:00:00Z' })]);
    const { router } = renderWithProviders(<LoginPage />, { resources, path: '/login', url: '/login?next=%2F%2Fevil.example', routes: [{ path: '/dashboard', element: <p>dash</p> }] });
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('dash');
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('asks for the authenticator code when the service says two-step sign-in is on, then sends it', async () => {
    const totpRequired = { error_code: 'invalid_credentials', message: 'wrong user name, password or code', details: { totp_required: true } };
    stubService(fetchMock, [jsonResponse(totpRequired, 401), jsonResponse({ username: 'admin', csrf_token: 'csrf-2', expires_at: '2026-11-26T00:00:00Z' })]);
    const { router } = renderWithProviders(<LoginPage />, { resources, path: '/login', url: '/login?next=%2Faccount', routes: [{ path: '/account', element: <p>account page</p> }] });
    await userEvent.type(await screen.findByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/^Password/), 'correct-horse-battery-staple');
    expect(screen.queryByLabelText(/Authenticator code/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Two-step sign-in is on: enter the code from your authenticator app.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Authenticator code/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('account page');
    expect(router.state.location.pathname).toBe('/account');
    const calls = loginCalls(fetchMock);
    expect(await calls[0].clone().json()).toEqual({ username: 'admin', password: 'correct-horse-battery-staple' });
    expect(await calls[1].clone().json()).toEqual({ username: 'admin', password: 'correct-horse-battery-staple', totp_code: '123456' });
  });
});
