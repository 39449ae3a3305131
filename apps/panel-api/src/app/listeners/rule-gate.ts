import { randomInt } from 'node:crypto';
import type { CompiledListenRule } from './listen-rule';

/**
 * The per-rule throttles of a listen rule, as tg-signer forks write them: `cooldown` (seconds after a
 * hit acted on during which further hits are only recorded), `probability` (the chance a hit is
 * acted on) and `max_daily` (hits acted on per day of the configured time zone). Kept in memory.
 */
export class RuleGate {
  private readonly state = new Map<string, { lastAt: number; day: string; count: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => number = () => randomInt(0, 1_000_000) / 1_000_000,
  ) {}

  /** Why the hit is not acted on, or undefined when it is (then it counts against cooldown and max_daily). */
  check(rule: Pick<CompiledListenRule, 'accountName' | 'taskName' | 'ruleIndex' | 'action'>, timeZone: string): string | undefined {
    const { cooldown, probability, max_daily: maxDaily } = rule.action;
    if (cooldown === undefined && probability === undefined && maxDaily === undefined) return undefined;
    const key = `${rule.accountName}\u0000${rule.taskName}\u0000${rule.ruleIndex}`;
    const now = this.now();
    const day = dayIn(now, timeZone);
    const entry = this.state.get(key) ?? { lastAt: Number.NEGATIVE_INFINITY, day, count: 0 };
    if (entry.day !== day) {
      entry.day = day;
      entry.count = 0;
    }
    this.state.set(key, entry);
    if (cooldown !== undefined && now - entry.lastAt < cooldown * 1000) return `skipped: cooldown of ${cooldown} s (${Math.ceil((entry.lastAt + cooldown * 1000 - now) / 1000)} s left)`;
    if (maxDaily !== undefined && entry.count >= maxDaily) return `skipped: max_daily ${maxDaily} reached`;
    if (probability !== undefined && this.random() >= probability) return `skipped: probability ${probability}`;
    entry.lastAt = now;
    entry.count += 1;
    return undefined;
  }
}

function dayIn(at: number, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Date(at).toISOString().slice(0, 10);
  }
}
