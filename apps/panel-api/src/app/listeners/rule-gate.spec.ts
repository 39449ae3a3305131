import { RuleGate } from './rule-gate';

const rule = (action: Record<string, unknown>) => ({ accountName: 'alice', taskName: 't', ruleIndex: 0, action: { action: 8 as const, ...action } });

describe('RuleGate', () => {
  it('lets every hit through without throttles', () => {
    const gate = new RuleGate();
    for (let i = 0; i < 5; i++) expect(gate.check(rule({}), 'UTC')).toBeUndefined();
  });

  it('holds hits during the cooldown and after max_daily, and counts only hits acted on', () => {
    let now = Date.parse('2026-11-27T10:00:00Z');
    const gate = new RuleGate(() => now);
    const limited = rule({ cooldown: 60, max_daily: 2 });
    expect(gate.check(limited, 'UTC')).toBeUndefined();
    now += 30_000;
    expect(gate.check(limited, 'UTC')).toBe('skipped: cooldown of 60 s (30 s left)');
    now += 31_000;
    expect(gate.check(limited, 'UTC')).toBeUndefined();
    now += 61_000;
    expect(gate.check(limited, 'UTC')).toBe('skipped: max_daily 2 reached');
    now = Date.parse('2026-11-28T00:00:01Z');
    expect(gate.check(limited, 'UTC')).toBeUndefined();
  });

  it('acts on a hit with the given probability', () => {
    const draws = [0.1, 0.7, 0.29];
    const gate = new RuleGate(Date.now, () => draws.shift() ?? 0);
    const rare = rule({ probability: 0.3 });
    expect(gate.check(rare, 'UTC')).toBeUndefined();
    expect(gate.check(rare, 'UTC')).toBe('skipped: probability 0.3');
    expect(gate.check(rare, 'UTC')).toBeUndefined();
  });
});
