import { describe, expect, it } from 'vitest';
import { LiveSignLog, mergeLive } from './dashboard-page';

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
