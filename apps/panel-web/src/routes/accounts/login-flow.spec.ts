import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/client';
import {
  initialPhoneLogin,
  initialQrLogin,
  isAccountName,
  isLoginCode,
  isPhoneNumber,
  looksLikeProxy,
  proxyRule,
  phoneLoginReducer,
  QR_REFRESH_MARGIN_MS,
  QR_REFRESH_WINDOW_MS,
  qrLoginReducer,
  QrLoginState,
  qrNeedsPolling,
  qrRefreshDelay,
} from './login-flow';

const account = { account_name: 'main', status: 'connected', needs_relogin: false } as Schemas['AccountDto'];
const qr = (loginId: string, state: Schemas['QrLoginStatusDto']['state'], extra: Partial<Schemas['QrLoginStatusDto']> = {}): Schemas['QrLoginStatusDto'] => ({ login_id: loginId, account_name: 'main', state, ...extra });

describe('phone login steps', () => {
  it('goes phone → code → password → done, keeping the code for the password step', () => {
    let state = phoneLoginReducer(initialPhoneLogin, { type: 'codeSent', accountName: 'main', phone: '+31612345678', codeType: 'app' });
    expect(state).toEqual({ step: 'code', accountName: 'main', phone: '+31612345678', codeType: 'app' });
    state = phoneLoginReducer(state, { type: 'verified', code: '12345', answer: { status: 'password_required', account_name: 'main', password_hint: 'pet' } });
    expect(state).toMatchObject({ step: 'password', code: '12345', hint: 'pet' });
    state = phoneLoginReducer(state, { type: 'verified', code: '12345', answer: { status: 'success', account_name: 'main', account } });
    expect(state).toEqual({ step: 'done', account });
  });

  it('goes back one step at a time: password → code → phone', () => {
    const code = phoneLoginReducer(initialPhoneLogin, { type: 'codeSent', accountName: 'main', phone: '+1555000', codeType: 'sms' });
    const password = phoneLoginReducer(code, { type: 'verified', code: '54321', answer: { status: 'password_required', account_name: 'main' } });
    expect(phoneLoginReducer(password, { type: 'back' })).toEqual(code);
    expect(phoneLoginReducer(code, { type: 'back' })).toEqual(initialPhoneLogin);
  });

  it('ignores a verification answer before a code was sent', () => {
    expect(phoneLoginReducer(initialPhoneLogin, { type: 'verified', code: '1', answer: { status: 'success', account_name: 'main', account } })).toBe(initialPhoneLogin);
  });

  it('checks codes, numbers, names and proxies as the service does', () => {
    expect(isLoginCode('12345')).toBe(true);
    expect(isLoginCode('123456')).toBe(true);
    expect(isLoginCode('1234')).toBe(false);
    expect(isLoginCode('12a45')).toBe(false);
    expect(isPhoneNumber('+31 6 1234 5678')).toBe(true);
    expect(isPhoneNumber('call me')).toBe(false);
    expect(isAccountName('主号')).toBe(true);
    expect(isAccountName('work.2')).toBe(true);
    expect(isAccountName('.hidden')).toBe(false);
    expect(isAccountName('status')).toBe(false);
    expect(isAccountName('a/b')).toBe(false);
    expect(isAccountName('x'.repeat(65))).toBe(false);
    expect(looksLikeProxy('socks5://user:pass@127.0.0.1:1080')).toBe(true);
    expect(looksLikeProxy('socks5://127.0.0.1:1080')).toBe(true);
    expect(looksLikeProxy('SOCKS5://proxy.example.com:1080/')).toBe(true);
    expect(looksLikeProxy('http://127.0.0.1:80')).toBe(true);
    expect(looksLikeProxy(`tg://proxy?server=h&port=443&secret=${'ee'.repeat(16)}`)).toBe(true);
    expect(looksLikeProxy(`mtproxy://${'ab'.repeat(16)}@host:443`)).toBe(true);
    expect(looksLikeProxy('127.0.0.1:1080')).toBe(false);
    expect(looksLikeProxy('ftp://host')).toBe(false);
    // The service's reasons, so a person is told what is really wrong (a valid socks5:// is never told to start with socks5://).
    expect(proxyRule('socks5://127.0.0.1')).toBe('proxy_port');
    expect(proxyRule('socks5://127.0.0.1:99999')).toBe('proxy_port');
    expect(proxyRule('ftp://127.0.0.1:21')).toBe('proxy_scheme');
    expect(proxyRule('just words')).toBe('proxy_format');
    expect(proxyRule('socks5://127.0.0.1:1080/path')).toBe('proxy_path');
    expect(proxyRule('mtproxy://abc@127.0.0.1:443')).toBe('proxy_secret');
    expect(proxyRule('socks5://u%zz:p@127.0.0.1:1080')).toBe('proxy_escape');
    expect(proxyRule('tg://proxy?server=h&port=443&secret=ee')).toBe('proxy_link');
  });
});

describe('QR login steps', () => {
  const t0 = Date.parse('2026-11-25T10:00:00Z');
  const expiresAt = (ms: number) => new Date(t0 + ms).toISOString();
  const started = (): QrLoginState => qrLoginReducer(initialQrLogin, { type: 'status', answer: qr('first', 'waiting_scan', { qr_url: 'tg://login?token=a', expires_at: expiresAt(30_000) }), now: t0 });

  it('shows the code, then scanned, password and done; polls only while waiting for the phone', () => {
    let state = started();
    expect(state).toEqual({ step: 'scan', loginId: 'first', qrUrl: 'tg://login?token=a', expiresAt: t0 + 30_000, startedAt: t0 });
    expect(qrNeedsPolling(state)).toBe(true);
    state = qrLoginReducer(state, { type: 'status', answer: qr('first', 'scanned_wait_confirm'), now: t0 + 2000 });
    expect(state).toMatchObject({ step: 'confirm', loginId: 'first' });
    expect(qrNeedsPolling(state)).toBe(true);
    state = qrLoginReducer(state, { type: 'status', answer: qr('first', 'password_required', { password_hint: 'cat' }), now: t0 + 4000 });
    expect(state).toMatchObject({ step: 'password', loginId: 'first', hint: 'cat' });
    expect(qrNeedsPolling(state)).toBe(false);
    state = qrLoginReducer(state, { type: 'status', answer: qr('first', 'success', { account }), now: t0 + 6000 });
    expect(state).toEqual({ step: 'done', account });
  });

  it('refreshes 5 s before the code expires, and a fresh code replaces a waiting one', () => {
    const state = started();
    expect(qrRefreshDelay(state, t0)).toBe(30_000 - QR_REFRESH_MARGIN_MS);
    expect(qrRefreshDelay(state, t0 + 29_000)).toBe(0); // overdue: at once
    const fresh = qrLoginReducer(state, { type: 'status', answer: qr('second', 'waiting_scan', { qr_url: 'tg://login?token=b', expires_at: expiresAt(55_000) }), now: t0 + 25_000, refresh: true });
    expect(fresh).toEqual({ step: 'scan', loginId: 'second', qrUrl: 'tg://login?token=b', expiresAt: t0 + 55_000, startedAt: t0 });
  });

  it('keeps a code that was scanned while a fresh one was being fetched', () => {
    const scanned = qrLoginReducer(started(), { type: 'status', answer: qr('first', 'scanned_wait_confirm'), now: t0 + 24_000 });
    const after = qrLoginReducer(scanned, { type: 'status', answer: qr('second', 'waiting_scan', { qr_url: 'tg://login?token=b' }), now: t0 + 25_000, refresh: true });
    expect(after).toBe(scanned);
  });

  it('ignores a late answer about a replaced code', () => {
    const fresh = qrLoginReducer(started(), { type: 'status', answer: qr('second', 'waiting_scan', { qr_url: 'tg://login?token=b', expires_at: expiresAt(55_000) }), now: t0 + 25_000, refresh: true });
    expect(qrLoginReducer(fresh, { type: 'status', answer: qr('first', 'expired'), now: t0 + 31_000 })).toBe(fresh);
  });

  it('stops refreshing after the window: the code then expires and the dialog offers a new one', () => {
    const late: QrLoginState = { step: 'scan', loginId: 'n', qrUrl: 'tg://login?token=n', expiresAt: t0 + QR_REFRESH_WINDOW_MS + 30_000, startedAt: t0 };
    expect(qrRefreshDelay(late, t0 + QR_REFRESH_WINDOW_MS)).toBeNull();
    const expired = qrLoginReducer(late, { type: 'status', answer: qr('n', 'expired'), now: late.expiresAt ?? 0 });
    expect(expired).toEqual({ step: 'expired' });
    expect(qrNeedsPolling(expired)).toBe(false);
    expect(qrLoginReducer(expired, { type: 'restart' })).toEqual(initialQrLogin);
  });

  it('does not refresh a code without an expiry, and reports a failure with its reason', () => {
    const noExpiry = qrLoginReducer(initialQrLogin, { type: 'status', answer: qr('x', 'waiting_scan', { qr_url: 'tg://login?token=x' }), now: t0 });
    expect(qrRefreshDelay(noExpiry, t0)).toBeNull();
    expect(qrLoginReducer(noExpiry, { type: 'status', answer: qr('x', 'failed', { error: 'AUTH_TOKEN_EXPIRED' }), now: t0 })).toEqual({ step: 'failed', error: 'AUTH_TOKEN_EXPIRED' });
  });
});
