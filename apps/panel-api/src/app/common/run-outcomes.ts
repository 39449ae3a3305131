// How a run can end, as the details file names it: the runner picks the state and the failure
// category, run history stores them, the history filter, the dashboard and the API documents offer
// them, the metrics label their counter with them.

/** The states of a run that ended without finishing. */
// `interrupted`: the service running it stopped, or (replicas on PostgreSQL) the replica running it died or lost the account's lease; the message says which.
export const INTERRUPTED_RUN_STATES = ['cancelled', 'stale', 'timeout', 'interrupted'] as const;
export type InterruptedRunState = (typeof INTERRUPTED_RUN_STATES)[number];

/** Every state of a run, from idle to its end. */
export const RUN_STATES = ['idle', 'running', 'finished', ...INTERRUPTED_RUN_STATES] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Why a run failed. */
export const RUN_FAILURE_CATEGORIES = [
  'session_invalid',
  'flood_wait',
  'ai_timeout',
  'ai_error',
  'button_not_found',
  'target_not_found',
  'network_proxy',
  'timeout',
  'strong_failure',
  // The bot answered with a failure pattern, or no pattern matched its answer in time (issue 35).
  'bot_refused',
  'unconfirmed',
  // The account's safety governor refused the action: automation paused, or the daily budget used up.
  'safety_limit',
  'unknown',
] as const;

/** Every category: `none` (the run did not fail) first. */
export const FAILURE_CATEGORIES = ['none', ...RUN_FAILURE_CATEGORIES] as const;

export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/**
 * The texts the runner itself writes as a run's result message (any other message is the bot's
 * answer or an error's text). Their codes go beside the message (`message_code`), so the web app can
 * say them in the person's language; read from the text, so stored runs get them too.
 */
export const RUN_MESSAGES = {
  completed: 'completed',
  no_answer: 'no answer from the bot',
  // The run was going when its service stopped (a restart, a deploy): recorded as `interrupted`.
  shutdown: 'Interrupted: the service stopped while the run was going',
  // Replicas: this replica gave the account up while the run was going (recorded as `interrupted`).
  released: 'Interrupted: the account moved to another replica while the run was going',
} as const;
export type RunMessageCode = keyof typeof RUN_MESSAGES;

export function runMessageCode(message: string): RunMessageCode | null {
  const found = (Object.keys(RUN_MESSAGES) as RunMessageCode[]).find((code) => RUN_MESSAGES[code] === message);
  return found ?? null;
}
