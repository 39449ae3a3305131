import { englishText } from '@shared/panel-texts';
import { TelegramError } from '../telegram/telegram-error';
import { AiError } from './ai-client';
import type { FailureCategory } from '../common/run-outcomes';
import { GovernorRefusal } from '../governor/account-governor';

/** A step failed for a reason the runner names itself (no matching button, no image, account unusable). */
export class StepFailure extends Error {
  constructor(
    readonly category: FailureCategory,
    message: string,
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

/** The catalogue's sentence (@shared/panel-texts `runMessage`) each interruption is recorded with. */
const INTERRUPTION_MESSAGES = {
  cancelled: 'run_cancelled',
  timeout: 'run_timeout',
  shutdown: 'run_shutdown',
  released: 'run_released',
} as const;

/**
 * The run was cancelled, hit its deadline, its service is stopping (`shutdown`) or its replica gave
 * the account up (`released`: the lease passed on); never retried.
 */
export class RunInterrupted extends Error {
  constructor(readonly reason: keyof typeof INTERRUPTION_MESSAGES) {
    super(englishText('runMessage', INTERRUPTION_MESSAGES[reason]));
    this.name = 'RunInterrupted';
  }
}

export function failureCategoryOf(error: unknown): FailureCategory {
  if (error instanceof StepFailure) return error.category;
  if (error instanceof GovernorRefusal) return 'safety_limit';
  if (error instanceof RunInterrupted) return error.reason === 'timeout' ? 'timeout' : 'none';
  if (error instanceof AiError) return error.kind === 'timeout' ? 'ai_timeout' : error.kind === 'not_configured' ? 'strong_failure' : 'ai_error';
  if (error instanceof TelegramError) {
    switch (error.kind) {
      case 'session_invalid':
        return 'session_invalid';
      case 'flood_wait':
        return 'flood_wait';
      case 'connection_error':
      case 'timeout':
        return 'network_proxy';
      case 'not_found':
        return error.details.rpcMessage === 'BUTTON_NOT_FOUND' ? 'button_not_found' : 'target_not_found';
      case 'not_configured':
        return 'strong_failure';
      default:
        return 'unknown';
    }
  }
  return 'unknown';
}

/** Failures a retry cannot fix: the session is gone, the account or AI is not set up, the run is over. */
export function isRetryable(category: FailureCategory): boolean {
  return !['session_invalid', 'strong_failure', 'timeout', 'none', 'safety_limit'].includes(category);
}
