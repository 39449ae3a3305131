import { Injectable, Logger } from '@nestjs/common';
import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { SignTask } from './sign-task.types';
import { isTaskName, parseTaskInput } from './task-validation';

const TASK_FILE_SUFFIX = '.json';

/**
 * The task documents on disk: one `.signer/tasks/<name>.json` per task, each written to a temporary
 * file and renamed. Everything is read once at startup and served from memory; a file that does not
 * hold a valid task is logged and left untouched (the other tasks still load).
 */
@Injectable()
export class TaskStore {
  private readonly logger = new Logger(TaskStore.name);
  private tasks?: Map<string, SignTask>;
  /** Files found at startup that could not be loaded, for the runtime status. */
  readonly unreadable: Array<{ file: string; reason: string }> = [];

  constructor(private readonly dataDirectory: DataDirectory) {}

  get folder(): string {
    return join(this.dataDirectory.signer, 'tasks');
  }

  all(): SignTask[] {
    return [...this.loaded().values()];
  }

  get(name: string): SignTask | undefined {
    return this.loaded().get(name);
  }

  has(name: string): boolean {
    return this.loaded().has(name);
  }

  /** Reads every task file again (another instance on the same data directory may have written them). */
  reload(): void {
    this.unreadable.length = 0;
    this.tasks = this.load();
  }

  /** Writes the document and keeps it in memory; the caller has validated it. */
  save(task: SignTask): void {
    const tasks = this.loaded();
    writeJsonFileAtomic(this.pathOf(task.name), task);
    tasks.set(task.name, task);
  }

  remove(name: string): boolean {
    const tasks = this.loaded();
    if (!tasks.has(name)) return false;
    try {
      unlinkSync(this.pathOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    tasks.delete(name);
    return true;
  }

  private pathOf(name: string): string {
    if (!isTaskName(name)) throw new Error(`Refusing a task file name that is not path-safe: ${JSON.stringify(name)}`);
    return join(this.folder, `${name}${TASK_FILE_SUFFIX}`);
  }

  private loaded(): Map<string, SignTask> {
    this.tasks ??= this.load();
    return this.tasks;
  }

  private load(): Map<string, SignTask> {
    this.dataDirectory.prepare();
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const tasks = new Map<string, SignTask>();
    for (const file of readdirSync(this.folder).sort()) {
      if (!file.endsWith(TASK_FILE_SUFFIX) || file.startsWith('.')) continue;
      const path = join(this.folder, file);
      try {
        const stored = readJsonObjectFile(path);
        if (!stored) continue;
        const parsed = parseTaskInput(stored, { strict: false });
        if (!parsed.ok) throw new CorruptDataFileError(path, parsed.problems.join('; '));
        if (`${parsed.task.name}${TASK_FILE_SUFFIX}` !== file) throw new CorruptDataFileError(path, `its name "${parsed.task.name}" does not match the file name`);
        const now = new Date().toISOString();
        tasks.set(parsed.task.name, {
          ...withDefaults(parsed.task),
          last_run: (stored['last_run'] as SignTask['last_run'] | undefined) ?? null,
          created_at: typeof stored['created_at'] === 'string' ? stored['created_at'] : now,
          updated_at: typeof stored['updated_at'] === 'string' ? stored['updated_at'] : now,
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.unreadable.push({ file, reason });
        this.logger.error(`Task file ${path} was not loaded and is left as it is: ${reason}`);
      }
    }
    return tasks;
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
