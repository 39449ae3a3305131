import { createTestPostgresDatabase, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { TaskExists } from '../common/panel-error';
import { DataDirectory } from '../data-dir/data-directory';
import { SignTaskRow } from './entities/sign-task-row.entity';
import { SignTask } from './sign-task.types';
import { TaskDiskChange, TaskStore } from './task-store';

const CREATED_AT = '2025-01-02T03:04:05.000Z';

function task(name: string, extra: Partial<SignTask> = {}): SignTask {
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
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    ...extra,
  };
}

async function nextTick(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

/** Two replicas: each its own data directory and connection, one database (SQLite file, or PostgreSQL with TEST_DATABASE_DRIVER=postgres). */
describe('TaskStore: two replicas on one database', () => {
  let shared: ReturnType<typeof tempDir>;
  let postgres: TestPostgresDatabase | undefined;
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const sources: DataSource[] = [];
  const stores: TaskStore[] = [];

  const openDataSource = async (): Promise<DataSource> => {
    const target = postgres ? ({ driver: 'postgres', url: postgres.url } as const) : ({ driver: 'sqlite', path: join(shared.path, 'db.sqlite') } as const);
    const source = new DataSource(dataSourceOptions(target));
    await source.initialize();
    sources.push(source);
    return source;
  };

  /** A replica's store on its own data directory (or `dataDir`), started as Nest starts it. */
  const startStore = async (dataDir?: string): Promise<TaskStore> => {
    let path = dataDir;
    if (!path) {
      const dir = tempDir('task-store-replica-');
      dirs.push(dir);
      path = dir.path;
    }
    const directory = new DataDirectory(path);
    directory.prepare();
    const store = new TaskStore(directory, await openDataSource());
    await store.onModuleInit();
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    shared = tempDir('task-store-db-');
    if (testDatabaseDriver() === 'postgres') postgres = await createTestPostgresDatabase('h3_task_store');
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) store.onModuleDestroy();
    for (const source of sources.splice(0)) await source.destroy();
    await postgres?.drop();
    postgres = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
    shared.remove();
  });

  it('reads what the other replica created, changed and deleted, and says what kind of change it was', async () => {
    const first = await startStore();
    const second = await startStore();
    const seenBySecond: TaskDiskChange[] = [];
    second.onExternalChange((change) => seenBySecond.push(change));

    await first.save(task('a'));
    expect(second.get('a')).toBeUndefined();
    expect((await second.refresh()).created).toEqual(['a']);
    expect(second.get('a')).toEqual(task('a'));

    await first.save(task('a', { sign_at: '09:30' }));
    expect((await second.refresh()).updated).toEqual(['a']);
    expect(second.all().map((t) => t.sign_at)).toEqual(['09:30']);

    await first.updateLastRun('a', { at: '2025-01-03T00:00:00.000Z', account_name: 'alice', success: true, message: 'ok', failure_category: 'none' });
    expect((await second.refresh()).lastRun).toEqual(['a']);

    expect(await first.remove('a')).toBe(true);
    expect(await first.remove('a')).toBe(false);
    expect((await second.refresh()).deleted).toEqual(['a']);
    expect(second.has('a')).toBe(false);

    await nextTick();
    expect(seenBySecond.map((change) => [change.created, change.updated, change.lastRun, change.deleted])).toEqual([
      [['a'], [], [], []],
      [[], ['a'], [], []],
      [[], [], ['a'], []],
      [[], [], [], ['a']],
    ]);
  });

  it('does not report its own writes as changes by someone else, and an unchanged table costs no re-read', async () => {
    const first = await startStore();
    const seen: TaskDiskChange[] = [];
    first.onExternalChange((change) => seen.push(change));
    await first.save(task('own'));
    await first.saveMany([task('one'), task('two')]);
    const change = await first.refresh();
    expect(change).toEqual({ created: [], updated: [], deleted: [], lastRun: [] });
    await nextTick();
    expect(seen).toEqual([]);
    expect(first.all().map((t) => t.name).sort()).toEqual(['one', 'own', 'two']);
  });

  it('refuses a second task of one name created on another replica that had not seen the first', async () => {
    const first = await startStore();
    const second = await startStore();
    await first.save(task('same'), { mustBeNew: true });
    await expect(second.save(task('same', { sign_at: '10:00' }), { mustBeNew: true })).rejects.toBeInstanceOf(TaskExists);
    await second.refresh();
    expect(second.get('same')?.sign_at).toBe('08:00');
  });

  it('records last_run on the stored document, keeping an edit another replica made meanwhile', async () => {
    const first = await startStore();
    const second = await startStore();
    await first.save(task('edited'));
    await second.refresh();
    await first.save(task('edited', { sign_at: '11:11' }));
    const stored = await second.updateLastRun('edited', { at: '2025-01-03T00:00:00.000Z', account_name: 'alice', success: false, message: 'no', failure_category: 'none' });
    expect(stored).toMatchObject({ sign_at: '11:11', last_run: { success: false } });
    expect(second.get('edited')?.sign_at).toBe('11:11');
    expect(await second.updateLastRun('gone', { at: '2025-01-03T00:00:00.000Z', account_name: 'alice', success: true, message: '', failure_category: 'none' })).toBeUndefined();
  });

  it('skips a stored row that holds no valid task and keeps the others', async () => {
    const first = await startStore();
    await first.save(task('good'));
    const source = sources[0];
    await source.getRepository(SignTaskRow).insert({ name: 'broken', document: '{"name":"broken","chats":"no"}', revision: 999, updatedAt: Date.now() });
    const second = await startStore();
    expect(second.all().map((t) => t.name)).toEqual(['good']);
    expect(second.unreadable.map((entry) => entry.name)).toEqual(['broken']);
  });

  it('moves .signer/tasks into the database once: a second start (or a file of a stored task) changes nothing', async () => {
    const dir = tempDir('task-store-import-');
    dirs.push(dir);
    const folder = join(dir.path, '.signer', 'tasks');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'daily.json'), JSON.stringify(task('daily')));
    writeFileSync(join(folder, 'weekly.json'), JSON.stringify(task('weekly', { sign_at: '07:00' })));
    writeFileSync(join(folder, 'broken.json'), '{"name": "broken"');

    const first = await startStore(dir.path);
    expect(first.lastFileImport).toMatchObject({ imported: ['daily', 'weekly'], already_stored: [] });
    expect(first.lastFileImport?.unreadable.map((entry) => entry.file)).toEqual(['broken.json']);
    expect(existsSync(folder)).toBe(false);
    const moved = readdirSync(join(dir.path, '.signer')).filter((name) => name.startsWith('tasks.imported-'));
    expect(moved).toHaveLength(1);
    expect(readdirSync(join(dir.path, '.signer', moved[0])).sort()).toEqual(['broken.json', 'daily.json', 'weekly.json']);
    expect(first.all().map((t) => t.name).sort()).toEqual(['daily', 'weekly']);
    await first.save(task('daily', { sign_at: '12:00' }));

    // A start on the same data directory: nothing left to import.
    const again = await startStore(dir.path);
    expect(again.lastFileImport).toBeUndefined();
    // The folder comes back (an interrupted import, a restored old backup): stored tasks win.
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'daily.json'), JSON.stringify(task('daily', { sign_at: '06:00' })));
    const third = await startStore(dir.path);
    expect(third.lastFileImport).toMatchObject({ imported: [], already_stored: ['daily'] });
    expect(third.get('daily')?.sign_at).toBe('12:00');
    expect((await sources[0].getRepository(SignTaskRow).find()).map((row) => row.name).sort()).toEqual(['daily', 'weekly']);
  });
});
