import type { Schemas } from '../../api/client';

/*
 * The two ways to add (or re-login) an account, as pure state machines: the dialogs render a state
 * and feed the service's answers in, so the order of steps is proven without a browser.
 */

// ---------------------------------------------------------------------------------------------
// Phone code: phone number → code Telegram sends (in the app, by SMS or call) → 2FA password.

export type PhoneLoginState =
  | { step: 'phone' }
  | { step: 'code'; accountName: string; phone: string; codeType: string }
  | { step: 'password'; accountName: string; phone: string; codeType: string; code: string; hint?: string }
  | { step: 'done'; account: Schemas['AccountDto'] };

export type PhoneLoginEvent =
  | { type: 'codeSent'; accountName: string; phone: string; codeType: string }
  | { type: 'verified'; code: string; answer: Schemas['LoginVerifyResultDto'] }
  | { type: 'back' };

export const initialPhoneLogin: PhoneLoginState = { step: 'phone' };

export function phoneLoginReducer(state: PhoneLoginState, event: PhoneLoginEvent): PhoneLoginState {
  switch (event.type) {
    case 'codeSent':
      return { step: 'code', accountName: event.accountName, phone: event.phone, codeType: event.codeType };
    case 'verified': {
      if (state.step !== 'code' && state.step !== 'password') return state;
      if (event.answer.status === 'password_required') {
        return { step: 'password', accountName: state.accountName, phone: state.phone, codeType: state.codeType, code: event.code, hint: event.answer.password_hint };
      }
      return event.answer.account ? { step: 'done', account: event.answer.account } : state;
    }
    case 'back':
      // From the password step back to the code; from the code back to the phone number (a new code).
      if (state.step === 'password') return { step: 'code', accountName: state.accountName, phone: state.phone, codeType: state.codeType };
      return { step: 'phone' };
  }
}

/** Telegram's login codes have 5 digits (6 for some accounts); the service accepts 4-8. */
export function isLoginCode(value: string): boolean {
  return /^\d{5,6}$/.test(value.trim());
}

/** The form check of the service (`+` and 5-25 digits, spaces, brackets or dashes). */
export function isPhoneNumber(value: string): boolean {
  return /^\+?[0-9][0-9 ()-]{4,24}$/.test(value.trim());
}

/** Mirrors the service's account-name rule so the form says what is wrong before sending. */
export function isAccountName(value: string): boolean {
  const name = value.trim();
  return /^(?!\.)(?!(?:status|login|qr-login|import-session)$)[\p{L}\p{M}\p{N}_.-]{1,64}$/u.test(name);
}

/** The proxy forms the service accepts (it validates the details and answers 400 with the reason). */
export function looksLikeProxy(value: string): boolean {
  return proxyRule(value) === undefined;
}

const PROXY_SCHEMES = new Set(['socks5', 'socks5h', 'socks4', 'http', 'mtproxy']);

function proxyPort(text: string | null | undefined): boolean {
  return !!text && /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}

/**
 * What is wrong with a proxy address, by the rule the service names (`proxy_port`, `proxy_scheme`...,
 * see account-proxy.ts), or undefined when the service would take it. So `socks5://host` is told
 * that its port is missing, not that it should start with socks5://.
 */
export function proxyRule(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const written = /^[a-z0-9]+:\/\/[^/?#]*:(\d+)\/?$/i.exec(text)?.[1];
    return written !== undefined && !proxyPort(written) ? 'proxy_port' : 'proxy_format';
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme === 'tg' || ((scheme === 'https' || scheme === 'http') && url.hostname === 't.me' && url.pathname === '/proxy')) {
    const ok = (scheme !== 'tg' || url.hostname === 'proxy') && !!url.searchParams.get('server') && proxyPort(url.searchParams.get('port')) && /^[0-9a-f]{32,}$/i.test(url.searchParams.get('secret') ?? '');
    return ok ? undefined : 'proxy_link';
  }
  if (!PROXY_SCHEMES.has(scheme)) return 'proxy_scheme';
  if (!url.hostname) return 'proxy_host';
  // The URL parser drops a scheme's default port (http://host:80): read it from the text.
  if (!proxyPort(url.port || /^[a-z0-9]+:\/\/[^/?#]*:(\d{1,5})\/?$/i.exec(text)?.[1])) return 'proxy_port';
  if ((url.pathname !== '' && url.pathname !== '/') || url.search) return 'proxy_path';
  if (scheme === 'mtproxy' && (!/^[0-9a-f]{32,}$/i.test(decodeURIComponentSafe(url.username) ?? '') || url.password)) return 'proxy_secret';
  if (decodeURIComponentSafe(url.username) === undefined || decodeURIComponentSafe(url.password) === undefined) return 'proxy_escape';
  return undefined;
}

function decodeURIComponentSafe(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// QR code: a login link shown as a QR code, polled until scanned; each code lives about 30 s, so a
// fresh one replaces it shortly before it expires (for a few minutes, then the person asks again).

/** A code is replaced this long before the expiry the service gives. */
export const QR_REFRESH_MARGIN_MS = 5_000;
/** New codes are fetched for this long after the first one; then the dialog offers a button. */
export const QR_REFRESH_WINDOW_MS = 5 * 60_000;
export const QR_POLL_INTERVAL_MS = 2_000;

export type QrLoginState =
  | { step: 'start' }
  | { step: 'scan'; loginId: string; qrUrl: string; expiresAt: number | null; startedAt: number }
  | { step: 'confirm'; loginId: string; startedAt: number }
  | { step: 'password'; loginId: string; hint?: string; startedAt: number }
  | { step: 'done'; account: Schemas['AccountDto'] }
  | { step: 'expired' }
  | { step: 'failed'; error?: string };

export type QrLoginEvent =
  /** An answer of start, poll, refresh or password; `refresh` marks a code that replaces the current one. */
  | { type: 'status'; answer: Schemas['QrLoginStatusDto']; now: number; refresh?: boolean }
  | { type: 'restart' };

export const initialQrLogin: QrLoginState = { step: 'start' };

export function currentLoginId(state: QrLoginState): string | undefined {
  return 'loginId' in state ? state.loginId : undefined;
}

export function qrLoginReducer(state: QrLoginState, event: QrLoginEvent): QrLoginState {
  if (event.type === 'restart') return initialQrLogin;
  const { answer, now } = event;
  const current = currentLoginId(state);
  if (event.refresh) {
    // A fresh code only replaces one still waiting for a scan; a scan of the old one wins.
    if (state.step !== 'scan') return state;
  } else if (current !== undefined && answer.login_id !== current) {
    return state; // a late answer about a code already replaced
  } else if (current === undefined && state.step !== 'start') {
    return state; // an answer after the dialog finished
  }
  // The refresh window counts from the first code, across the codes that replace it.
  const startedAt = 'startedAt' in state ? state.startedAt : now;
  switch (answer.state) {
    case 'waiting_scan': {
      // A poll of the same code that leaves out its link or expiry keeps what the start said.
      const same = state.step === 'scan' && state.loginId === answer.login_id ? state : undefined;
      return {
        step: 'scan',
        loginId: answer.login_id,
        qrUrl: answer.qr_url ?? same?.qrUrl ?? '',
        expiresAt: answer.expires_at ? Date.parse(answer.expires_at) : (same?.expiresAt ?? null),
        startedAt,
      };
    }
    case 'scanned_wait_confirm':
      return { step: 'confirm', loginId: answer.login_id, startedAt };
    case 'password_required':
      return { step: 'password', loginId: answer.login_id, hint: answer.password_hint, startedAt };
    case 'success':
      return answer.account ? { step: 'done', account: answer.account } : state;
    case 'expired':
      return { step: 'expired' };
    default:
      return { step: 'failed', error: answer.error };
  }
}

/**
 * When to fetch a fresh code: milliseconds from `now`, or null when no refresh is due (no expiry
 * given, or the refresh window is over: the code then simply expires and the dialog offers a button).
 */
export function qrRefreshDelay(state: QrLoginState, now: number): number | null {
  if (state.step !== 'scan' || state.expiresAt === null) return null;
  const at = state.expiresAt - QR_REFRESH_MARGIN_MS;
  if (at - state.startedAt > QR_REFRESH_WINDOW_MS) return null;
  return Math.max(0, at - now);
}

/** Whether the service is polled: while the code waits for a scan or for the confirmation. */
export function qrNeedsPolling(state: QrLoginState): boolean {
  return state.step === 'scan' || state.step === 'confirm';
}
