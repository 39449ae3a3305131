import { englishText } from '@shared/panel-texts';
import { TelegramError } from './telegram-error';

/** RPC error messages that mean the authorization behind the session is gone for good. */
const SESSION_INVALID_MESSAGES = new Set([
  'AUTH_KEY_UNREGISTERED',
  'AUTH_KEY_INVALID',
  'AUTH_KEY_PERM_EMPTY',
  'AUTH_KEY_DUPLICATED',
  'SESSION_REVOKED',
  'SESSION_EXPIRED',
  'USER_DEACTIVATED',
  'USER_DEACTIVATED_BAN',
]);

const INVALID_CREDENTIAL_MESSAGES = new Set([
  'PHONE_NUMBER_INVALID',
  'PHONE_NUMBER_BANNED',
  'PHONE_NUMBER_UNOCCUPIED',
  'PHONE_CODE_INVALID',
  'PHONE_CODE_EXPIRED',
  'PHONE_CODE_EMPTY',
  'PASSWORD_HASH_INVALID',
  'SRP_ID_INVALID',
  'API_ID_INVALID',
  'API_ID_PUBLISHED_FLOOD',
]);

const NOT_FOUND_MESSAGES = new Set([
  'PEER_ID_INVALID',
  'CHANNEL_INVALID',
  'CHANNEL_PRIVATE',
  'CHAT_ID_INVALID',
  'USERNAME_INVALID',
  'USERNAME_NOT_OCCUPIED',
  'MESSAGE_ID_INVALID',
  'DATA_INVALID',
]);

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
]);

const NETWORK_MESSAGE_PATTERN =
  /Not connected|Connection to telegram failed|disconnected|NetSocket was closed|socket|proxy|Socks|ECONN|EHOST|ENET|ENOTFOUND/i;

function recordOf(error: unknown): Record<string, unknown> {
  return error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
}

/** The MTProto error text (`FLOOD_WAIT_42`, `AUTH_KEY_UNREGISTERED`) of a GramJS RPCError, if it is one. */
function rpcMessageOf(error: unknown): string | undefined {
  const value = recordOf(error)['errorMessage'];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The one place where GramJS/MTProto failures become TelegramError. Everything the adapter calls
 * goes through here, so the categories (session invalid, flood wait, connection error) are decided once.
 */
export function mapGramJsError(error: unknown): TelegramError {
  if (error instanceof TelegramError) return error;
  const record = recordOf(error);
  const rpcMessage = rpcMessageOf(error);
  if (rpcMessage) {
    // GramJS turns FLOOD_WAIT_X into FloodWaitError with `seconds` and errorMessage "FLOOD"; keep both forms.
    const floodMatch = /^(?:FLOOD_WAIT|FLOOD_PREMIUM_WAIT|SLOWMODE_WAIT)_(\d+)$/.exec(rpcMessage);
    if (floodMatch) return TelegramError.floodWait(Number(floodMatch[1]), rpcMessage);
    if (typeof record['seconds'] === 'number' && /FLOOD|SLOWMODE/.test(rpcMessage)) {
      const seconds = record['seconds'];
      return TelegramError.floodWait(seconds, `FLOOD_WAIT_${seconds}`);
    }
    if (SESSION_INVALID_MESSAGES.has(rpcMessage)) return TelegramError.sessionInvalid(rpcMessage);
    if (rpcMessage === 'SESSION_PASSWORD_NEEDED') {
      return new TelegramError('invalid_credentials', 'The account has a two-step verification password', { rpcMessage });
    }
    if (INVALID_CREDENTIAL_MESSAGES.has(rpcMessage)) {
      return new TelegramError('invalid_credentials', `Telegram refused the login data (${rpcMessage})`, { rpcMessage });
    }
    if (NOT_FOUND_MESSAGES.has(rpcMessage)) return new TelegramError('not_found', englishText('runMessage', 'telegram_answered', { code: rpcMessage }), { rpcMessage });
    if (rpcMessage === 'TIMEOUT' || rpcMessage === 'RPC_CALL_FAIL') {
      return new TelegramError('timeout', `Telegram did not answer in time (${rpcMessage})`, { rpcMessage });
    }
    return new TelegramError('rpc_error', englishText('runMessage', 'telegram_answered', { code: rpcMessage }), { rpcMessage });
  }
  const code = typeof record['code'] === 'string' ? record['code'] : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code && NETWORK_ERROR_CODES.has(code)) return new TelegramError('connection_error', englishText('runMessage', 'telegram_unreachable', { reason: code }));
  if (message === 'TIMEOUT' || /timed? ?out/i.test(message)) return new TelegramError('timeout', 'Telegram did not answer in time');
  if (NETWORK_MESSAGE_PATTERN.test(message)) return new TelegramError('connection_error', englishText('runMessage', 'telegram_unreachable', { reason: message }));
  return new TelegramError('rpc_error', `Telegram request failed: ${message}`);
}
