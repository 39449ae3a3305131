import { LinearRegex } from './linear-regex';

/** How a sign run ended by the bot's answer (issue 35). */
export const RUN_VERDICTS = ['success', 'already_done', 'failed', 'unconfirmed'] as const;
export type RunVerdict = (typeof RUN_VERDICTS)[number];

export const VERDICT_PATTERN_MODES = ['contains', 'regex'] as const;
export type VerdictPatternMode = (typeof VERDICT_PATTERN_MODES)[number];

/** One pattern: text the reply contains (case-insensitive), or an RE2 expression. */
export interface VerdictPattern {
  mode: VerdictPatternMode;
  pattern: string;
}

/** A chat's rules for reading the bot's answer to the chat's last action. */
export interface ChatVerdictRules {
  success?: VerdictPattern[];
  already_done?: VerdictPattern[];
  failure?: VerdictPattern[];
  /** Seconds to wait for a matching answer (default 30). */
  timeout_seconds?: number;
  /**
   * Whose messages count besides replies to our message: a user id or `@username` (the bot of a
   * group). In a private chat every incoming message is the target's.
   */
  from?: string;
  /** Ask the configured model to classify an answer no pattern matched (the classification is logged). */
  ai_fallback?: boolean;
  /** A failed or unmatched answer naming a wait ("请 37 分钟后再试", "try again in 2 hours", "明天再来") runs the task once more after it. */
  rerun_after_wait?: boolean;
}

export const VERDICT_LIMITS = {
  patterns: 20,
  patternLength: 512,
  timeoutSeconds: { min: 1, max: 300, default: 30 },
  /** Stored matched text. */
  matchedTextLength: 500,
  /** The longest wait a reply may name before the task runs again. */
  maxNamedWaitSeconds: 36 * 3600,
} as const;

/** The order in which patterns are tried on one answer: a bot that says "已经签到成功" is already done, not newly signed. */
const ORDER: ReadonlyArray<{ key: 'already_done' | 'failure' | 'success'; verdict: RunVerdict }> = [
  { key: 'already_done', verdict: 'already_done' },
  { key: 'failure', verdict: 'failed' },
  { key: 'success', verdict: 'success' },
];

interface CompiledPattern {
  source: VerdictPattern;
  test: (text: string) => boolean;
}

/** A chat's patterns compiled once per run; RE2 so a pattern cannot stall on hostile chat text. */
export class VerdictMatcher {
  private readonly compiled: Array<{ verdict: RunVerdict; patterns: CompiledPattern[] }>;

  constructor(rules: ChatVerdictRules) {
    this.compiled = ORDER.map(({ key, verdict }) => ({
      verdict,
      patterns: (rules[key] ?? []).map((source) => ({ source, test: compilePattern(source) })),
    }));
  }

  /** True when the chat declares at least one pattern (otherwise the run is not judged by the answer). */
  get declared(): boolean {
    return this.compiled.some((group) => group.patterns.length > 0);
  }

  /** The verdict of one answer and the pattern that decided it, or undefined when nothing matched. */
  classify(text: string): { verdict: RunVerdict; pattern: VerdictPattern } | undefined {
    for (const group of this.compiled) {
      const hit = group.patterns.find((p) => p.test(text));
      if (hit) return { verdict: group.verdict, pattern: hit.source };
    }
    return undefined;
  }
}

function compilePattern(source: VerdictPattern): (text: string) => boolean {
  if (source.mode === 'regex') {
    const regex = LinearRegex.compile(source.pattern, { ignoreCase: true });
    return (text) => regex.exec(text) !== null;
  }
  const needle = source.pattern.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

/** The verdict of a run from its chats' verdicts: a failure anywhere fails it, then an unconfirmed chat, then success over already done. */
export function combineVerdicts(verdicts: readonly RunVerdict[]): RunVerdict | null {
  if (verdicts.length === 0) return null;
  for (const verdict of ['failed', 'unconfirmed', 'success'] as const) if (verdicts.includes(verdict)) return verdict;
  return 'already_done';
}

const MINUTES = /(\d{1,4})\s*(?:分钟|分鐘|分|min(?:ute)?s?\b|m\b)/i;
const HOURS = /(\d{1,3})\s*(?:个?小时|個?小時|hours?\b|hrs?\b|h\b)/i;
const SECONDS = /(\d{1,5})\s*(?:秒|sec(?:ond)?s?\b|s\b)/i;
const TOMORROW = /明天|明日|次日|tomorrow/i;
const WAIT_CONTEXT = /后|後|再|稍|请|請|try|again|wait|later|retry|cooldown|come back/i;

/**
 * The wait a bot's answer names ("请 37 分钟后再试", "try again in 2 hours", "明天再来"), in
 * milliseconds from `now`; "tomorrow" is the next midnight of `timeZone` plus five minutes.
 * Undefined when the answer names none or a wait beyond VERDICT_LIMITS.maxNamedWaitSeconds.
 */
export function namedWaitMs(text: string, now: Date, timeZone: string): number | undefined {
  if (!WAIT_CONTEXT.test(text)) return undefined;
  let seconds = 0;
  const hours = HOURS.exec(text);
  const minutes = MINUTES.exec(text);
  const secs = SECONDS.exec(text);
  if (hours) seconds += Number(hours[1]) * 3600;
  if (minutes) seconds += Number(minutes[1]) * 60;
  if (secs && !hours && !minutes) seconds += Number(secs[1]);
  if (seconds === 0 && TOMORROW.test(text)) return msUntilNextMidnight(now, timeZone) + 5 * 60_000;
  if (seconds === 0 || seconds > VERDICT_LIMITS.maxNamedWaitSeconds) return undefined;
  return seconds * 1000;
}

function msUntilNextMidnight(now: Date, timeZone: string): number {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(now);
  const value = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0) % 24;
  const elapsed = (value('hour') * 3600 + Number(parts.find((p) => p.type === 'minute')?.value ?? 0) * 60 + Number(parts.find((p) => p.type === 'second')?.value ?? 0)) * 1000;
  return 86_400_000 - elapsed;
}

/** Matched text as stored and shown: one line, bounded. */
export function clipMatchedText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > VERDICT_LIMITS.matchedTextLength ? `${line.slice(0, VERDICT_LIMITS.matchedTextLength - 1)}…` : line;
}
