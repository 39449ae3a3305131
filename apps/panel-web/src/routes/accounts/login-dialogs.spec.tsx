import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { en, zh } from '../../i18n/all';
import { accountChanges } from './edit-account-dialog';
import { PhoneLogin } from './phone-login';
import { QrLogin } from './qr-login';

const resources = { en, zh };
const account = { account_name: 'main', status: 'connected', needs_relogin: false, remark: null, proxy: null, has_session: true, user: null, last_check: null, created_at: '', updated_at: '' };

type Handler = (request: Request) => Response | Promise<Response>;

describe('account login dialogs', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const calls: { method: string; path: string; body: unknown }[] = [];
  const route = (handlers: Record<string, Handler>) => {
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      const path = decodeURIComponent(new URL(request.url).pathname);
      const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
      calls.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
      const handler = handlers[`${request.method} ${path}`] ?? (path === '/api/config/settings' ? () => jsonResponse({ timezone: 'UTC' }) : undefined);
      if (!handler) throw new Error(`unexpected ${request.method} ${path}`);
      return handler(request);
    });
  };
  beforeEach(() => {
    session.logIn('tok');
    calls.length = 0;
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('phone code: sends the code, hints where it arrives, shows the service’s refusal, asks for the 2FA password, then finishes', async () => {
    let verifications = 0;
    route({
      'POST /api/accounts/login/start': () => jsonResponse({ account_name: 'main', status: 'code_sent', code_type: 'app' }),
      'POST /api/accounts/login/verify': () => {
        verifications += 1;
        if (verifications === 1) return jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'Telegram refused the login data (PHONE_CODE_INVALID)' }, 400);
        if (verifications === 2) return jsonResponse({ status: 'password_required', account_name: 'main', password_hint: 'dog' });
        return jsonResponse({ status: 'success', account_name: 'main', account });
      },
    });
    const onDone = vi.fn();
    const { unmount } = renderWithProviders(<PhoneLogin onDone={onDone} />, { resources });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Account name/), 'main');
    await user.type(screen.getByLabelText(/^Phone number/), 'nonsense');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Enter the number with its country code, e.g. +31612345678.')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/accounts/login/start')).toHaveLength(0);
    await user.clear(screen.getByLabelText(/^Phone number/));
    await user.type(screen.getByLabelText(/^Phone number/), '+31 612345678');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    const code = await screen.findByLabelText(/^Login code/);
    expect(screen.getByText('The code has 5 or 6 digits and arrives in Telegram: the chat “Telegram” on your other devices.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/accounts/login/start')?.body).toEqual({ account_name: 'main', phone_number: '+31 612345678' });
    await user.type(code, '12a3');
    expect(code).toHaveValue('123'); // digits only
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    await user.type(code, '45');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Telegram refused the login data (PHONE_CODE_INVALID)');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const password = await screen.findByLabelText(/^Two-step verification password/);
    expect(screen.getByText('Hint: dog')).toBeInTheDocument();
    await user.type(password, 's3cret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(account));
    unmount();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false); // a finished login has nothing to cancel
    const verifies = calls.filter((call) => call.path === '/api/accounts/login/verify').map((call) => call.body);
    expect(verifies.at(-1)).toEqual({ account_name: 'main', phone_code: '12345', password: 's3cret' });
  });

  it('phone code: closing the dialog while the code is awaited cancels that login at the service', async () => {
    route({
      'POST /api/accounts/login/start': () => jsonResponse({ account_name: '主号', status: 'code_sent', code_type: 'sms' }),
      'DELETE /api/accounts/login/主号': () => new Response(null, { status: 204 }),
    });
    const { unmount } = renderWithProviders(<PhoneLogin initialName="主号" onDone={vi.fn()} />, { resources });
    await userEvent.type(screen.getByLabelText(/^Phone number/), '+8613800138000');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/arrives by SMS/)).toBeInTheDocument();
    unmount();
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/accounts/login/主号')).toBe(true));
  });

  it('QR: replaces the code shortly before it expires and cancels the old one at the service', async () => {
    let starts = 0;
    route({
      'POST /api/accounts/qr-login/start': () => {
        starts += 1;
        // The first code expires 6 s from now, so its replacement is due after about 1 s.
        const expires = new Date(Date.now() + (starts === 1 ? 6_000 : 30_000)).toISOString();
        return jsonResponse({ login_id: `login-${starts}-abcdef`, account_name: 'main', state: 'waiting_scan', qr_url: `tg://login?token=t${starts}`, expires_at: expires });
      },
      'GET /api/accounts/qr-login/login-1-abcdef': () => jsonResponse({ login_id: 'login-1-abcdef', account_name: 'main', state: 'waiting_scan', qr_url: 'tg://login?token=t1' }),
      'GET /api/accounts/qr-login/login-2-abcdef': () => jsonResponse({ login_id: 'login-2-abcdef', account_name: 'main', state: 'success', account }),
      'DELETE /api/accounts/qr-login/login-1-abcdef': () => new Response(null, { status: 204 }),
    });
    const onDone = vi.fn();
    renderWithProviders(<QrLogin initialName="main" onDone={onDone} />, { resources });
    expect(screen.getByLabelText(/^Account name/)).toHaveAttribute('readonly');
    await userEvent.click(screen.getByRole('button', { name: 'Show QR code' }));
    expect(await screen.findByRole('img', { name: 'QR code to log in with Telegram' })).toBeInTheDocument();
    expect(screen.getByText(/This code expires in \d s .*a new one replaces it shortly before\./)).toBeInTheDocument();
    await waitFor(() => expect(starts).toBe(2), { timeout: 4000 });
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/accounts/qr-login/login-1-abcdef')).toBe(true));
    // The new code is polled; its success finishes the dialog.
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(account), { timeout: 5000 });
    expect(calls.filter((call) => call.method === 'DELETE' && call.path.endsWith('login-2-abcdef'))).toHaveLength(0);
  });

  it('edit: the masked proxy is never sent back; a new one replaces it, removal sends null', () => {
    expect(accountChanges(' note ', '', false)).toEqual({ remark: 'note' });
    expect(accountChanges('', '', false)).toEqual({ remark: null });
    expect(accountChanges('x', ' socks5://h:1 ', false)).toEqual({ remark: 'x', proxy: 'socks5://h:1' });
    expect(accountChanges('x', 'socks5://h:1', true)).toEqual({ remark: 'x', proxy: null });
  });
});
