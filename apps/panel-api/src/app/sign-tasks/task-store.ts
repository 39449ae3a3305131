import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { raiseStoreRevision, readStoreRevision, SerialQueue } from '../data-dir/store-revisions';
import { DataDirectory } from '../data-dir/data-directory';
import { entriesToImport, moveAsideImported } from '../data-dir/imported-files';
import { readJsonObjectFile } from '../data-dir/json-file-store';
import { TaskExists } from '../common/panel-error';
import { SignTaskRow } from './entities/sign-task-row.entity';
import { SignTask, TaskLastRun } from './sign-task.types';
import { isTaskName, parseTaskInput } from './task-validation';

/** The scope of the tasks' counter in `store_revisions`. */
export const SIGN_TASKS_SCOPE = 'sign_tasks';

/** How often a replica looks for writes of the others when nothing asked (one primary-key read). */
export const TASK_POLL_INTERVAL_MS = 1_000;

/** What another writer (another replica on the same database) changed. */
export interface TaskDiskChange {
  created: string[];
  updated: string[];
  deleted: string[];
  /** Tasks whose only difference is last_run (another replica finished a run). */
  lastRun: string[];
}

export type TaskDiskChangeListener = (change: TaskDiskChange) => void;

/** What the one-time move of `.signer/tasks/*.json` into the database did. */
export interface TaskFileImport {
  /** The folder the files were in, renamed to `moved_to` afterwards (null when another replica sharing the data directory did it first). */
  folder: string;
  moved_to: string | null;
  imported: string[];
  /** Tasks the database already held (an earlier, interrupted import or another replica): left as they are. */
  already_stored: string[];
  /** Files that did not hold a valid task, with the reason; they stay in the renamed folder. */
  unreadable: Array<{ file: string; reason: string }>;
}

function isEmpty(change: TaskDiskChange): boolean {
  return !change.created.length && !change.updated.length && !change.deleted.length && !change.lastRun.length;
}

function withoutLastRun(task: SignTask): string {
  return JSON.stringify({ ...task, last_run: null });
}

/** The stored document of a task (as the former task file held it), checked as a file was. */
export function parseStoredTask(stored: Record<string, unknown>): SignTask {
  const parsed = parseTaskInput(stored, { strict: false, checkSchedule: false });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const now = new Date().toISOString();
  return {
    ...withDefaults(parsed.task),
    last_run: (stored['last_run'] as SignTask['last_run'] | undefined) ?? null,
    created_at: typeof stored['created_at'] === 'string' ? stored['created_at'] : now,
    updated_at: typeof stored['updated_at'] === 'string' ? stored['updated_at'] : now,
  };
}

/**
 * The task documents, in the database (`sign_tasks`, one JSON document per task) so every replica
 * on one PostgreSQL database serves the same tasks. They are served from memory, kept in step with
 * the table: every write raises the `sign_tasks` counter in its transaction; `refresh()` reads the
 * counter and, when it moved, re-reads only the rows written since, and tells `onExternalChange`
 * listeners what another replica changed. Request handlers refresh before they read (one
 * primary-key read), and a timer does so every second for the scheduler and the listeners.
 * A row that does not hold a valid task is logged and skipped (the others still load; a task
 * already loaded keeps its last good version).
 *
 * At the first start on a data directory that still has `.signer/tasks/*.json` (an instance of an
 * earlier version, or a restored backup of one), the files are moved into the table once: tasks the
 * table already holds are left alone, and the folder is renamed, so a second start finds nothing.
 */
@Injectable()
export class TaskStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TaskStore.name);
  private readonly tasks = new Map<string, SignTask>();
  /** The revision of the row each loaded task came from. */
  private readonly revisions = new Map<string, number>();
  /** The `sign_tasks` counter at the last complete look at the table. */
  private revision = -1;
  private readonly listeners = new Set<TaskDiskChangeListener>();
  private pollTimer?: NodeJS.Timeout;
  private readonly queue = new SerialQueue();
  /** Rows that could not be loaded, for the runtime status. */
  readonly unreadable: Array<{ name: string; reason: string }> = [];
  /** What the import of task files at this start did (undefined when there was no folder to import). */
  lastFileImport?: TaskFileImport;

  constructor(
    private readonly dataDirectory: DataDirectory,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Where tasks were kept before they moved into the database. */
  get legacyFolder(): string {
    return join(this.dataDirectory.signer, 'tasks');
  }

  async onModuleInit(): Promise<void> {
    this.lastFileImport = await this.importTaskFiles();
    await this.refresh();
    this.pollTimer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.logger.error({ err: error }, 'Re-reading the tasks failed'));
    }, TASK_POLL_INTERVAL_MS);
    this.pollTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
  }

  /** Told (after the refresh that found it) what another replica changed; returns the unsubscribe function. */
  onExternalChange(listener: TaskDiskChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The tasks as of the last refresh or own write. */
  all(): SignTask[] {
    return [...this.tasks.values()];
  }

  get(name: string): SignTask | undefined {
    return this.tasks.get(name);
  }

  has(name: string): boolean {
    return this.tasks.has(name);
  }

  /**
   * Brings memory in line with the table and reports (also to the listeners) what changed since the
   * last look. Runs after this process's writes in flight (see exclusive).
   */
  refresh(): Promise<TaskDiskChange> {
    return this.queue.run(async () => {
      const change = await this.scan();
      this.announce(change);
      return change;
    });
  }

  /** Writes the document and keeps it in memory; the caller has validated it. TaskExists when `mustBeNew` and the name is taken. */
  async save(task: SignTask, options: { mustBeNew?: boolean } = {}): Promise<void> {
    assertStorableName(task.name);
    await this.write(
      async (manager, revision) => {
        if (options.mustBeNew && (await manager.existsBy(SignTaskRow, { name: task.name }))) throw new TaskExists(task.name);
        await manager.upsert(SignTaskRow, [this.row(task, revision)], ['name']);
      },
      (revision) => this.keep(task, revision),
    );
  }

  /** Writes several documents in one transaction (all or none); the caller has validated them. */
  async saveMany(documents: SignTask[]): Promise<void> {
    if (documents.length === 0) return;
    for (const task of documents) assertStorableName(task.name);
    await this.write(
      async (manager, revision) => {
        for (let at = 0; at < documents.length; at += 100) {
          await manager.upsert(
            SignTaskRow,
            documents.slice(at, at + 100).map((task) => this.row(task, revision)),
            ['name'],
          );
        }
      },
      (revision) => {
        for (const task of documents) this.keep(task, revision);
      },
    );
  }

  /**
   * Sets last_run in the stored document as it is now (not as this replica last saw it), so an edit
   * made meanwhile on another replica is kept. The stored document, or undefined when the task is gone.
   */
  /** `fence` runs first in the write's transaction (replicas: the account's lease check); when it throws, nothing is written. */
  async updateLastRun(name: string, lastRun: TaskLastRun, fence?: (manager: EntityManager) => Promise<void>): Promise<SignTask | undefined> {
    let updated: SignTask | undefined;
    await this.write(
      async (manager, revision) => {
        await fence?.(manager);
        const row = await manager.findOneBy(SignTaskRow, { name });
        if (!row) return;
        updated = { ...parseStoredTask(JSON.parse(row.document) as Record<string, unknown>), last_run: lastRun };
        await manager.update(SignTaskRow, { name }, { document: JSON.stringify(updated), revision, updatedAt: Date.now() });
      },
      (revision) => {
        if (updated) this.keep(updated, revision);
      },
    );
    return updated;
  }

  /** Removes the task; false when the table did not hold it. */
  async remove(name: string): Promise<boolean> {
    let removed = false;
    await this.write(async (manager) => {
      removed = await manager.existsBy(SignTaskRow, { name });
      if (removed) await manager.delete(SignTaskRow, { name });
    }, () => {
      this.tasks.delete(name);
      this.revisions.delete(name);
    });
    return removed;
  }

  /** Runs `work` in a transaction that first raises the counter (which orders it after every other write); returns the new revision. */
  private write(work: (manager: EntityManager, revision: number) => Promise<void>, apply: (revision: number) => void): Promise<number> {
    return this.queue.run(async () => {
      const revision = await this.dataSource.transaction(async (manager) => {
        const revision = await raiseStoreRevision(manager, SIGN_TASKS_SCOPE);
        await work(manager, revision);
        return revision;
      });
      apply(revision);
      return revision;
    });
  }

  private row(task: SignTask, revision: number): SignTaskRow {
    return { name: task.name, document: JSON.stringify(task), revision, updatedAt: Date.now() };
  }

  private keep(task: SignTask, revision: number): void {
    this.tasks.set(task.name, task);
    this.revisions.set(task.name, revision);
  }

  private async scan(): Promise<TaskDiskChange> {
    const change: TaskDiskChange = { created: [], updated: [], deleted: [], lastRun: [] };
    const revision = await readStoreRevision(this.dataSource, SIGN_TASKS_SCOPE);
    if (revision === this.revision) return change;
    const repository = this.dataSource.getRepository(SignTaskRow);
    const stored = await repository.find({ select: { name: true, revision: true } });
    const present = new Set(stored.map((row) => row.name));
    const stale = stored.filter((row) => this.revisions.get(row.name) !== row.revision || !this.tasks.has(row.name)).map((row) => row.name);
    const rows = stale.length === 0 ? [] : await this.readRows(stale);
    for (const row of rows) {
      const unreadableAt = this.unreadable.findIndex((entry) => entry.name === row.name);
      if (unreadableAt >= 0) this.unreadable.splice(unreadableAt, 1);
      try {
        const task = parseStoredTask(JSON.parse(row.document) as Record<string, unknown>);
        if (task.name !== row.name) throw new Error(`its name "${task.name}" does not match the row's`);
        const previous = this.tasks.get(task.name);
        this.keep(task, row.revision);
        if (!previous) change.created.push(task.name);
        else if (withoutLastRun(previous) !== withoutLastRun(task)) change.updated.push(task.name);
        else if (JSON.stringify(previous.last_run) !== JSON.stringify(task.last_run)) change.lastRun.push(task.name);
      } catch (error) {
        this.revisions.set(row.name, row.revision);
        const reason = error instanceof Error ? error.message : String(error);
        this.unreadable.push({ name: row.name, reason });
        this.logger.error(`Stored task ${JSON.stringify(row.name)} was not loaded and is left as it is: ${reason}`);
      }
    }
    for (const name of [...this.tasks.keys()]) {
      if (present.has(name)) continue;
      this.tasks.delete(name);
      this.revisions.delete(name);
      change.deleted.push(name);
    }
    for (let at = this.unreadable.length - 1; at >= 0; at--) if (!present.has(this.unreadable[at].name)) this.unreadable.splice(at, 1);
    this.revision = revision;
    return change;
  }

  private async readRows(names: string[]): Promise<SignTaskRow[]> {
    const repository = this.dataSource.getRepository(SignTaskRow);
    const rows: SignTaskRow[] = [];
    // Bounded IN lists: SQLite allows 999 parameters per statement.
    for (let at = 0; at < names.length; at += 500) {
      rows.push(...(await repository.createQueryBuilder('task').where('task.name IN (:...names)', { names: names.slice(at, at + 500) }).getMany()));
    }
    return rows;
  }

  /**
   * Moves `.signer/tasks/*.json` into the table, once: a task the table already holds stays as it is
   * (the import is repeated after a crash between the commit and the rename, and changes nothing
   * then), and the folder is renamed `tasks.imported-<time>` so the next start finds nothing.
   */
  private async importTaskFiles(): Promise<TaskFileImport | undefined> {
    const folder = this.legacyFolder;
    if (!existsSync(folder)) return undefined;
    const unreadable: TaskFileImport['unreadable'] = [];
    const documents: SignTask[] = [];
    const files = entriesToImport(folder)
      .map((entry) => entry.name)
      .filter((file) => file.endsWith('.json') && !file.startsWith('.'))
      .sort();
    const read: string[] = [];
    for (const file of files) {
      try {
        const stored = readJsonObjectFile(join(folder, file));
        // Gone: another replica sharing the data directory imported it and set the folder aside.
        if (!stored) continue;
        read.push(file);
        const task = parseStoredTask(stored);
        if (!isStorableName(task.name)) throw new Error('its name is not a valid task name');
        documents.push(task);
      } catch (error) {
        unreadable.push({ file, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    const imported: string[] = [];
    const alreadyStored: string[] = [];
    if (documents.length > 0) {
      await this.write(
        async (manager, revision) => {
          for (const task of documents) {
            if (await manager.existsBy(SignTaskRow, { name: task.name })) alreadyStored.push(task.name);
            else {
              await manager.insert(SignTaskRow, this.row(task, revision));
              imported.push(task.name);
            }
          }
        },
        // Memory is filled by the first refresh.
        () => undefined,
      );
    }
    const movedTo = join(this.dataDirectory.signer, `tasks.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    // Another replica sharing the data directory set the folder aside first when the files read here are gone from it.
    const stillHere = files.length === 0 || [...read, ...unreadable.map((entry) => entry.file)].some((file) => existsSync(join(folder, file)));
    if (!stillHere || !moveAsideImported(folder, movedTo)) {
      this.logger.log(`The task files of ${folder} were moved into the database by another replica sharing this data directory (${imported.length} imported here)`);
      return { folder, moved_to: null, imported, already_stored: alreadyStored, unreadable };
    }
    const report: TaskFileImport = { folder, moved_to: movedTo, imported, already_stored: alreadyStored, unreadable };
    this.logger.log(
      `Moved the task files of ${folder} into the database: ${imported.length} imported, ${alreadyStored.length} already stored and left as they are, ` +
        `${unreadable.length} unreadable (kept in ${movedTo})` +
        (unreadable.length ? `: ${unreadable.map((entry) => `${entry.file} (${entry.reason})`).join('; ')}` : ''),
    );
    return report;
  }

  /** Listeners hear about it after the current synchronous work (a read inside a re-sync must not re-enter it). */
  private announce(change: TaskDiskChange): void {
    if (isEmpty(change)) return;
    queueMicrotask(() => {
      for (const listener of this.listeners) {
        try {
          listener(change);
        } catch (error) {
          this.logger.error({ err: error }, 'A task change listener failed');
        }
      }
    });
  }
}

function isStorableName(name: string): boolean {
  return isTaskName(name);
}

function assertStorableName(name: string): void {
  if (!isStorableName(name)) throw new Error(`Refusing a task that has no valid name: ${JSON.stringify(name)}`);
}

/** Fills the optional fields of a validated input with their defaults. */
export function withDefaults<T extends { random_seconds?: number; enabled?: boolean; retry_count?: number; notify_on_failure?: boolean; notify_on_success?: boolean }>(
  input: T,
): T & { random_seconds: number; enabled: boolean; retry_count: number; notify_on_failure: boolean; notify_on_success: boolean } {
  return {
    ...input,
    random_seconds: input.random_seconds ?? 0,
    enabled: input.enabled ?? true,
    retry_count: input.retry_count ?? 3,
    notify_on_failure: input.notify_on_failure ?? true,
    notify_on_success: input.notify_on_success ?? false,
  };
}
