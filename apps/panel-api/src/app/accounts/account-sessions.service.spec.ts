import { TelegramError, TelegramErrorKind } from '../telegram/telegram-error';
import { panelErrorFor } from './account-sessions.service';
import { ERROR_STATUS } from '../common/panel-error';

describe('panelErrorFor', () => {
  it("answers each of Telegram's failures with its own code and status, never a 500", () => {
    const cases: [TelegramErrorKind, string, number][] = [
      ['timeout', 'telegram_timeout', 504],
      ['connection_error', 'telegram_unreachable', 502],
      ['not_configured', 'telegram_unavailable', 503],
      ['aborted', 'telegram_unavailable', 503],
      ['not_found', 'telegram_target_not_found', 404],
      ['login_not_found', 'login_not_found', 404],
      ['invalid_credentials', 'login_code_invalid', 400],
      ['rpc_error', 'telegram_failed', 502],
    ];
    for (const [kind, code, status] of cases) {
      const error = panelErrorFor(new TelegramError(kind, `failed: ${kind}`));
      expect([kind, error.code, ERROR_STATUS[error.code], error.message]).toEqual([kind, code, status, `failed: ${kind}`]);
    }
  });

  it('passes the wait of a flood_wait on as Retry-After seconds', () => {
    const error = panelErrorFor(TelegramError.floodWait(42));
    expect([error.code, ERROR_STATUS[error.code], error.retryAfterSeconds]).toEqual(['flood_wait', 429, 42]);
  });
});
