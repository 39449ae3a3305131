import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/all';
import { testFailureText } from './channel-tests';

const i18n = createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, initAsync: false });
const t = i18n.t.bind(i18n);

describe('why a channel test failed, in a sentence', () => {
  it('explains a network failure without the errno, and a refusal with the receiver\'s words', () => {
    expect(testFailureText(t, { channel: 'ntfy', error_code: 'network_error', status: null, detail: null })).toMatch(/^Nothing answered at that address/);
    expect(testFailureText(t, { channel: 'bark', error_code: 'dns_failed', status: null, detail: null })).toMatch(/host name in the address could not be found/);
    expect(testFailureText(t, { channel: 'ntfy', error_code: 'http_error', status: 403, detail: 'topic is reserved' })).toBe(
      'The receiver refused the message (HTTP 403); check the address and the key or token. It said: “topic is reserved”',
    );
    // Email set to go without encryption while the operator keeps private addresses off: nothing was sent.
    expect(testFailureText(t, { channel: 'email', error_code: 'encryption_required', status: null, detail: null })).toMatch(/^Email without encryption .* choose STARTTLS or TLS\.$/);
  });

  it('names what to fix for the bot: the token, the chat, or a blocked bot', () => {
    expect(testFailureText(t, { channel: 'bot', error_code: 'http_error', status: 401, detail: 'Unauthorized' })).toMatch(/bot token/);
    expect(testFailureText(t, { channel: 'bot', error_code: 'http_error', status: 400, detail: 'Bad Request: chat not found' })).toMatch(/check the chat id/);
    expect(testFailureText(t, { channel: 'bot', error_code: 'http_error', status: 403, detail: 'Forbidden: bot was blocked by the user' })).toMatch(/blocked/);
    // A DNS failure is not Telegram refusing the message.
    expect(testFailureText(t, { channel: 'bot', error_code: 'dns_failed', status: null, detail: null })).toMatch(/could not reach Telegram's Bot API from this server.*Telegram did not refuse/);
  });
});
