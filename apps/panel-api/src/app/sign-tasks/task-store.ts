import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { FSWatcher, mkdirSync, readdirSync, statSync, unlinkSync, watch } from 'node:fs';
import { join } from 'node:path';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, jsonFileText, readJsonObjectFile, replaceFilesAtomically, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { SignTask } from './sign-task.types';
import { isTaskName, parseTaskInput, taskFileStem } from './task-validation';

const TASK_FILE_SUFFIX = '.json';
/** fs.watch fires several events per atomic write; one re-scan covers them. */
const WATCH_DEBOUNCE_MS = 100;
/** Fallback where fs.watch says nothing (network file systems): a cheap folder check this often. */
const POLL_INTERVAL_MS = 5_000;

/** What another writer (another instance on the same data directory, a hand edit) changed on disk. */
export interface TaskDiskChange {
  created: string[];
  updated: string[];
  deleted: string[];
  /** Tasks whose only difference is last_run (another instance finished a run). */
  lastRun: string[];
}

export type TaskDiskChangeListener = (change: TaskDiskChange) => void;

interface KnownFile {
  stamp: string;
  /** The task the file holds; undefined when it could not be loaded. */
  name?: string;
}

function isEmpty(change: TaskDiskChange): boolean {
  return !change.created.length && !change.updated.length && !change.deleted.length && !change.lastRun.length;
}

/** A file's identity as far as change detection goes: a rename-over gives a new inode, an edit a new mtime or size. */
function stampOf(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function withoutLastRun(task: SignTask): string {
  return JSON.stringify({ ...task, last_run: null });
}

/**
 * The task documents on disk: one `.signer/tasks/<name>.json` per task (a name that is not
 * path-safe gets a derived file name, see taskFileStem), each written to a temporary
 * file and renamed. They are served from memory, kept in step with the folder so that several
 * instances on one data directory agree: every read first compares the folder's mtime (one stat)
 * and re-scans when it moved, fs.watch re-scans shortly after any change, and a slow poll covers file
 * systems without watch events. A re-scan re-reads only files whose mtime, size or inode changed and
 * tells `onExternalChange` listeners what another writer changed. A file that does not hold a valid
 * task is logged and left untouched (the other tasks still load; a task already loaded keeps its last
 * good version).
 */
@Injectable()
export class TaskStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TaskStore.name);
  private tasks?: Map<string, SignTask>;
  private readonly files = new Map<string, KnownFile>();
  private folderStamp?: string;
  private readonly listeners = new Set<TaskDiskChangeListener>();
  private watcher?: FSWatcher;
  private watchTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  /** Files that could not be loaded, for the runtime status. */
  readonly unreadable: Array<{ file: string; reason: string }> = [];

  constructor(private readonly dataDirectory: DataDirectory) {}

  get folder(): string {
    return join(this.dataDirectory.signer, 'tasks');
  }

  onModuleInit(): void {
    this.loaded();
    try {
      this.watcher = watch(this.folder, { persistent: false }, () => this.refreshSoon());
      this.watcher.on('error', (error) => {
        this.logger.warn(`Watching ${this.folder} failed (${error.message}); changes by other instances are picked up on reads and every ${POLL_INTERVAL_MS / 1000} s`);
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch (error) {
      this.logger.warn(`Cannot watch ${this.folder} (${(error as Error).message}); changes by other instances are picked up on reads and every ${POLL_INTERVAL_MS / 1000} s`);
    }
    this.pollTimer = setInterval(() => this.refreshIfFolderChanged(), POLL_INTERVAL_MS);
    this.pollTimer.unref();
  }

  onModuleDestroy(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.watchTimer) clearTimeout(this.watchTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
  }

  /** Told (after the read or re-scan that found it) what another writer changed; returns the unsubscribe function. */
  onExternalChange(listener: TaskDiskChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  all(): SignTask[] {
    return [...this.fresh().values()];
  }

  get(name: string): SignTask | undefined {
    return this.fresh().get(name);
  }

  has(name: string): boolean {
    return this.fresh().has(name);
  }

  /** Re-scans the folder now and reports (also to the listeners) what changed since the last look. */
  refresh(): TaskDiskChange {
    if (!this.tasks) {
      this.loaded();
      return { created: [], updated: [], deleted: [], lastRun: [] };
    }
    const change = this.scan();
    this.announce(change);
    return change;
  }

  /** Writes the document and keeps it in memory; the caller has validated it. */
  save(task: SignTask): void {
    const tasks = this.loaded();
    const file = this.fileOf(task.name);
    writeJsonFileAtomic(join(this.folder, file), task);
    tasks.set(task.name, task);
    this.noteOwnWrite(file, task.name);
  }

  /** Writes several documents as one change (all files or none, one folder sync); the caller has validated them. */
  saveMany(documents: SignTask[]): void {
    const tasks = this.loaded();
    const files = documents.map((task) => ({ task, file: this.fileOf(task.name) }));
    replaceFilesAtomically(files.map(({ task, file }) => ({ path: join(this.folder, file), data: jsonFileText(task) })));
    for (const { task, file } of files) {
      tasks.set(task.name, task);
      this.noteOwnWrite(file, task.name);
    }
  }

  remove(name: string): boolean {
    const tasks = this.fresh();
    if (!tasks.has(name)) return false;
    const file = this.fileOf(name);
    try {
      unlinkSync(join(this.folder, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    tasks.delete(name);
    this.noteOwnWrite(file, undefined);
    return true;
  }

  private fileOf(name: string): string {
    if (!isTaskName(name)) throw new Error(`Refusing a task that has no valid name: ${JSON.stringify(name)}`);
    return `${taskFileStem(name)}${TASK_FILE_SUFFIX}`;
  }

  /** Remembers this instance's own write so the next scan does not take it for someone else's. */
  private noteOwnWrite(file: string, name: string | undefined): void {
    const stamp = name === undefined ? undefined : stampOf(join(this.folder, file));
    if (stamp === undefined) this.files.delete(file);
    else this.files.set(file, { stamp, name });
    // Another instance writing in the same instant is missed by the read check, not by the watch re-scan (it compares file stamps).
    this.folderStamp = this.currentFolderStamp();
  }

  private loaded(): Map<string, SignTask> {
    if (!this.tasks) {
      this.dataDirectory.prepare();
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      this.tasks = new Map();
      this.scan();
    }
    return this.tasks;
  }

  private fresh(): Map<string, SignTask> {
    const tasks = this.loaded();
    this.refreshIfFolderChanged();
    return tasks;
  }

  private refreshIfFolderChanged(): void {
    if (!this.tasks) return;
    try {
      if (this.currentFolderStamp() !== this.folderStamp) this.refresh();
    } catch (error) {
      this.logger.error({ err: error }, `Re-reading ${this.folder} failed`);
    }
  }

  private refreshSoon(): void {
    if (this.watchTimer) return;
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      try {
        this.refresh();
      } catch (error) {
        this.logger.error({ err: error }, `Re-reading ${this.folder} failed`);
      }
    }, WATCH_DEBOUNCE_MS);
    this.watchTimer.unref();
  }

  private currentFolderStamp(): string | undefined {
    try {
      return String(statSync(this.folder, { bigint: true }).mtimeNs);
    } catch {
      return undefined;
    }
  }

  /** Brings memory in line with the folder, re-reading only files whose stamp changed. */
  private scan(): TaskDiskChange {
    const tasks = this.tasks ?? new Map<string, SignTask>();
    this.tasks = tasks;
    // Taken before listing, so a write during the scan makes the next read look again.
    this.folderStamp = this.currentFolderStamp();
    const change: TaskDiskChange = { created: [], updated: [], deleted: [], lastRun: [] };
    const seen = new Set<string>();
    for (const file of readdirSync(this.folder).sort()) {
      if (!file.endsWith(TASK_FILE_SUFFIX) || file.startsWith('.')) continue;
      const path = join(this.folder, file);
      const stamp = stampOf(path);
      if (stamp === undefined) continue;
      seen.add(file);
      const known = this.files.get(file);
      if (known?.stamp === stamp) continue;
      const unreadableAt = this.unreadable.findIndex((entry) => entry.file === file);
      if (unreadableAt >= 0) this.unreadable.splice(unreadableAt, 1);
      try {
        const task = this.read(path, file);
        const previous = tasks.get(task.name);
        tasks.set(task.name, task);
        this.files.set(file, { stamp, name: task.name });
        if (!previous) change.created.push(task.name);
        else if (withoutLastRun(previous) !== withoutLastRun(task)) change.updated.push(task.name);
        else if (JSON.stringify(previous.last_run) !== JSON.stringify(task.last_run)) change.lastRun.push(task.name);
      } catch (error) {
        this.files.set(file, { stamp, name: known?.name });
        const reason = error instanceof Error ? error.message : String(error);
        this.unreadable.push({ file, reason });
        this.logger.error(`Task file ${path} was not loaded and is left as it is: ${reason}`);
      }
    }
    for (const [file, known] of [...this.files]) {
      if (seen.has(file)) continue;
      this.files.delete(file);
      const unreadableAt = this.unreadable.findIndex((entry) => entry.file === file);
      if (unreadableAt >= 0) this.unreadable.splice(unreadableAt, 1);
      if (known.name !== undefined && tasks.delete(known.name)) change.deleted.push(known.name);
    }
    return change;
  }

  private read(path: string, file: string): SignTask {
    const stored = readJsonObjectFile(path);
    if (!stored) throw new CorruptDataFileError(path, 'it disappeared while being read');
    const parsed = parseTaskInput(stored, { strict: false, checkSchedule: false });
    if (!parsed.ok) throw new CorruptDataFileError(path, parsed.problems.join('; '));
    if (this.fileOf(parsed.task.name) !== file) throw new CorruptDataFileError(path, `its name "${parsed.task.name}" does not match the file name`);
    const now = new Date().toISOString();
    return {
      ...withDefaults(parsed.task),
      last_run: (stored['last_run'] as SignTask['last_run'] | undefined) ?? null,
      created_at: typeof stored['created_at'] === 'string' ? stored['created_at'] : now,
      updated_at: typeof stored['updated_at'] === 'string' ? stored['updated_at'] : now,
    };
  }

  /** Listeners hear about it after the current synchronous work (a read inside a re-sync must not re-enter it). */
  private announce(change: TaskDiskChange): void {
    if (isEmpty(change)) return;
    queueMicrotask(() => {
      for (const listener of this.listeners) {
        try {
          listener(change);
        } catch (error) {
          this.logger.error({ err: error }, 'A task disk change listener failed');
        }
      }
    });
  }
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
