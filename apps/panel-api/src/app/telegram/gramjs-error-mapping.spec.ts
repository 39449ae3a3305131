import { Api, errors } from 'telegram';
import { mapGramJsError } from './gramjs-error-mapping';
import { TelegramError } from './telegram-error';

/** Errors as GramJS's MTProtoSender builds them from an rpc_error answer. */
function rpc(message: string, code = 400): Error {
  return errors.RPCMessageToError(new Api.RpcError({ errorCode: code, errorMessage: message }), new Api.help.GetConfig());
}

describe('mapGramJsError', () => {
  it.each(['AUTH_KEY_UNREGISTERED', 'SESSION_REVOKED', 'USER_DEACTIVATED', 'USER_DEACTIVATED_BAN', 'AUTH_KEY_DUPLICATED', 'SESSION_EXPIRED'])(
    '%s means the session is invalid',
    (message) => {
      const mapped = mapGramJsError(rpc(message, 401));
      expect(mapped.kind).toBe('session_invalid');
      expect(mapped.details.rpcMessage).toBe(message);
    },
  );

  it('turns FLOOD_WAIT_X (GramJS FloodWaitError) into flood_wait with the seconds', () => {
    const error = rpc('FLOOD_WAIT_42', 420);
    expect(error).toBeInstanceOf(errors.FloodWaitError);
    const mapped = mapGramJsError(error);
    expect(mapped.kind).toBe('flood_wait');
    expect(mapped.seconds).toBe(42);
    expect(mapGramJsError(rpc('SLOWMODE_WAIT_7', 420))).toMatchObject({ kind: 'flood_wait', details: { seconds: 7 } });
    expect(mapGramJsError(rpc('FLOOD_PREMIUM_WAIT_3', 420))).toMatchObject({ kind: 'flood_wait', details: { seconds: 3 } });
  });

  it('maps network failures to connection_error and timeouts to timeout', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:80'), { code: 'ECONNREFUSED' });
    expect(mapGramJsError(refused).kind).toBe('connection_error');
    expect(mapGramJsError(new Error('Not connected')).kind).toBe('connection_error');
    expect(mapGramJsError(new Error('Cannot send requests while disconnected. You need to call .connect()')).kind).toBe('connection_error');
    expect(mapGramJsError(new Error('TIMEOUT')).kind).toBe('timeout');
    expect(mapGramJsError(rpc('TIMEOUT', -503)).kind).toBe('timeout');
  });

  it('maps login refusals, unknown peers and other RPC errors', () => {
    expect(mapGramJsError(rpc('PHONE_CODE_INVALID')).kind).toBe('invalid_credentials');
    expect(mapGramJsError(rpc('PASSWORD_HASH_INVALID')).kind).toBe('invalid_credentials');
    expect(mapGramJsError(rpc('USERNAME_NOT_OCCUPIED')).kind).toBe('not_found');
    expect(mapGramJsError(rpc('CHAT_WRITE_FORBIDDEN', 403))).toMatchObject({ kind: 'rpc_error', details: { rpcMessage: 'CHAT_WRITE_FORBIDDEN' } });
    expect(mapGramJsError(new Error('something odd')).kind).toBe('rpc_error');
  });

  it('keeps TelegramErrors as they are', () => {
    const original = TelegramError.floodWait(5);
    expect(mapGramJsError(original)).toBe(original);
  });
});
