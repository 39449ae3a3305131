import { tempDir, waitFor } from '@shared/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirectory } from '../data-dir/data-directory';
import { SignTask } from './sign-task.types';
import { TaskDiskChange, TaskStore } from './task-store';

const CREATED_AT = '2025-01-02T03:04:05.000Z';

function task(name: string, extra: Partial<SignTask> = {}): SignTask {
  const now = CREATED_AT;
  return {
    name,
    account_name: 'alice',
    sign_at: '08:00',
    random_seconds: 0,
    execution_mode: 'fixed',
    enabled: true,
    retry_count: 3,
    notify_on_failure: true,
    notify_on_success: false,
    last_run: null,
    chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: 'hi' }] }],
    created_at: now,
    updated_at: now,
    ...extra,
  };
}

async function nextTick(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('TaskStore on a data directory shared by two instances', () => {
  let dir: ReturnType<typeof tempDir>;
  let first: TaskStore;
  let second: TaskStore;
  let seenBySecond: TaskDiskChange[];

  beforeEach(() => {
    dir = tempDir('task-store-');
    first = new TaskStore(new DataDirectory(dir.path));
    second = new TaskStore(new DataDirectory(dir.path));
    first.onModuleInit();
    second.onModuleInit();
    seenBySecond = [];
    second.onExternalChange((change) => seenBySecond.push(change));
  });

  afterEach(() => {
    first.onModuleDestroy();
    second.onModuleDestroy();
    dir.remove();
  });

  it('reads what the other instance created, changed and deleted, and says what kind of change it was', async () => {
    first.save(task('a'));
    expect(second.get('a')?.sign_at).toBe('08:00');
    first.save(task('a', { sign_at: '09:30' }));
    expect(second.all().map((t) => t.sign_at)).toEqual(['09:30']);
    first.save(task('a', { sign_at: '09:30', last_run: { at: new Date().toISOString(), account_name: 'alice', success: true, message: 'ok', failure_category: 'none' } }));
    expect(second.get('a')?.last_run?.success).toBe(true);
    first.remove('a');
    expect(second.has('a')).toBe(false);
    await nextTick();
    expect(seenBySecond).toEqual([
      { created: ['a'], updated: [], deleted: [], lastRun: [] },
      { created: [], updated: ['a'], deleted: [], lastRun: [] },
      { created: [], updated: [], deleted: [], lastRun: ['a'] },
      { created: [], updated: [], deleted: ['a'], lastRun: [] },
    ]);
  });

  it('does not report its own writes as changes by someone else', async () => {
    second.save(task('own'));
    second.save(task('own', { enabled: false }));
    second.remove('own');
    second.refresh();
    // A write by the other instance after them: once the watch reported it, it had its chance to report ours.
    first.save(task('marker'));
    await waitFor(() => seenBySecond.length > 0, 10_000);
    expect(seenBySecond).toEqual([{ created: ['marker'], updated: [], deleted: [], lastRun: [] }]);
  });

  it('picks up a change through the folder watch without any read, and keeps the last good version of a file broken by hand', async () => {
    first.save(task('watched'));
    await waitFor(() => seenBySecond.length > 0, 10_000);
    expect(seenBySecond).toEqual([{ created: ['watched'], updated: [], deleted: [], lastRun: [] }]);

    // Written in place (no rename, the folder does not change): only the watch notices.
    writeFileSync(join(dir.path, '.signer', 'tasks', 'watched.json'), '{ broken');
    await waitFor(() => second.unreadable.length > 0, 10_000);
    expect(second.get('watched')?.sign_at).toBe('08:00');
    expect(second.unreadable.map((entry) => entry.file)).toEqual(['watched.json']);
    first.refresh();
    first.save(task('watched', { sign_at: '10:00' }));
    expect(second.get('watched')?.sign_at).toBe('10:00');
    expect(second.unreadable).toEqual([]);
  });
});
