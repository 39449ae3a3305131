import { describe, expect, it } from 'vitest';
import { liveSignLogOf, LiveSignLog, mergeLive } from './dashboard-page';

const row = (id: string): LiveSignLog => ({ run_id: id, account_name: 'a', task_name: 't', success: true, message: 'ok', created_at: '2026-11-23T00:00:00Z', failure_category: 'none' });

describe('mergeLive', () => {
  it('puts the newest first, ignores a repeated run and keeps 20', () => {
    let list: LiveSignLog[] = [];
    for (let index = 0; index < 25; index += 1) list = mergeLive(list, row(String(index)));
    expect(list).toHaveLength(20);
    expect(list[0].run_id).toBe('24');
    expect(mergeLive(list, row('24'))).toBe(list);
  });
});

describe('liveSignLogOf', () => {
  it("takes the run id from the event's id (the data has none), so each run is a row of its own", () => {
    const data = JSON.stringify({ account_name: 'a', task_name: 't', success: true, message: 'ok', created_at: '2026-11-23T00:00:00Z', failure_category: 'none' });
    const first = liveSignLogOf({ event: 'sign_log', id: 'run-1', data });
    const second = liveSignLogOf({ event: 'sign_log', id: 'run-2', data });
    expect(first).toEqual({ ...JSON.parse(data), run_id: 'run-1' });
    expect(mergeLive(mergeLive([], first as LiveSignLog), second as LiveSignLog).map((row) => row.run_id)).toEqual(['run-2', 'run-1']);
    expect(liveSignLogOf({ event: 'ready', data: '{}' })).toBeUndefined();
    expect(liveSignLogOf({ event: 'sign_log', id: 'run-3', data: 'not json' })).toBeUndefined();
  });
});
