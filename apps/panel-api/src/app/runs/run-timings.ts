/**
 * How long runs wait for what. The defaults are the details file's (5 s cooldown per account, 300 s
 * per run); e2e tests and the benchmark provide shorter ones through RUN_TIMINGS.
 */
export const RUN_TIMINGS = Symbol('RUN_TIMINGS');

export interface RunTimings {
  /** After sending text or dice (or pressing a button): how long to wait for the bot's reply. */
  replyWaitMs: number;
  /** One AI request. */
  aiTimeoutMs: number;
  /** Minimum time between two runs of one account. */
  accountCooldownMs: number;
  /** One run, retries included. */
  runTimeoutMs: number;
  /** Pause before a retry (a flood wait asks for longer and gets it). */
  retryDelayMs: number;
  /** Deadline of a single Telegram call. */
  telegramCallTimeoutMs: number;
  /** Comment line on idle SSE streams. */
  sseKeepAliveMs: number;
  /** How often the chat is read while waiting for the bot's answer that decides the verdict (1.5 s by default). */
  verdictPollMs?: number;
  /** Multiplies a wait a bot names ("try again in 37 minutes") before the rerun; 1 except in tests. */
  namedWaitScale?: number;
}

export const DEFAULT_RUN_TIMINGS: RunTimings = {
  replyWaitMs: 5_000,
  aiTimeoutMs: 60_000,
  accountCooldownMs: 5_000,
  runTimeoutMs: 300_000,
  retryDelayMs: 3_000,
  telegramCallTimeoutMs: 30_000,
  sseKeepAliveMs: 15_000,
};
