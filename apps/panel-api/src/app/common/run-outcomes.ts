import { CodedText, en, englishText, PhaseDetailCode, readText, RunMessageCode, TextParams } from '@shared/panel-texts';

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
 * The texts the runner itself writes as a run's result message: its own words, an error it names
 * (a step that found no button, Telegram's wait, the model unreachable) and the record of an
 * interrupted run, each a sentence of the panel's catalogue (@shared/panel-texts). Their code and
 * parameters go beside the message (`message_code`, `message_params`), so the web app and the
 * notifications say them in the person's language; read from the text, so stored runs get them too.
 * Any other message is the bot's answer or a library's error text, shown as it is.
 */
export const RUN_MESSAGE_CODES = Object.keys(en.runMessage) as RunMessageCode[];
export type { RunMessageCode };

export const RUN_MESSAGES = { completed: englishText('runMessage', 'completed'), no_answer: englishText('runMessage', 'no_answer') } as const;

/** A run's result message as the runner wrote it, with how the run ended (which says whose words it can be). */
export interface RunMessageSource {
  message: string;
  success: boolean;
  failure_category: string;
}

/**
 * The code and parameters of a run's result message, or null for a bot's answer or an uncoded error
 * text. A succeeded run's message is the bot's answer or `completed`; a run the bot refused or did not
 * confirm has its answer or `no_answer`; only the other failures carry an error's text.
 */
export function runMessageOf(run: RunMessageSource): CodedText<RunMessageCode> | null {
  if (run.success) return run.message === RUN_MESSAGES.completed ? { code: 'completed', params: {} } : null;
  if (run.failure_category === 'bot_refused' || run.failure_category === 'unconfirmed') return run.message === RUN_MESSAGES.no_answer ? { code: 'no_answer', params: {} } : null;
  return readText('runMessage', run.message);
}

/** The message's code and parameters as the API answers them beside the text. */
export function runMessageFields(run: RunMessageSource): { message_code: RunMessageCode | null; message_params: Record<string, string> } {
  const coded = runMessageOf(run);
  return { message_code: coded?.code ?? null, message_params: stringParams(coded?.params) };
}

/** A running run's phase detail (its English, as the runner wrote it) as its code and parameters. */
export function phaseDetailFields(detail: string | null): { phase_detail_code: PhaseDetailCode | null; phase_detail_params: Record<string, string> } {
  const coded = detail ? readText('phaseDetail', detail) : null;
  return { phase_detail_code: coded?.code ?? null, phase_detail_params: stringParams(coded?.params) };
}

function stringParams(params: TextParams | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(params ?? {}).map(([key, value]) => [key, String(value)]));
}
