import type { EntityManager } from 'typeorm';
import { Injectable, Logger } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import { AccountStore } from '../accounts/account-store';
import { ExecutionMode, SignTask, SignTaskInput, TaskChange, TaskLastRun } from './sign-task.types';
import { TaskStore, withDefaults } from './task-store';
import { isTaskName, normaliseTask, pushSecretProblems, TASK_NAME_RULE, taskProblemFields, taskRuleProblems } from './task-validation';
import { TaskExists, TaskNotFound, ValidationFailed } from '../common/panel-error';

export interface TaskListFilter {
  /** Tasks that run for this account (tasks for `"*"` included). */
  account?: string;
  enabled?: boolean;
  execution_mode?: ExecutionMode;
}

export type TaskChangeListener = (change: TaskChange) => void;

export interface WriteOptions {
  /** A configuration import: a listen rule may lack its push URL or key (the export left it out). */
  allowMissingPushSecrets?: boolean;
  /**
   * The schedules were checked (parseTaskInput) in the same request a moment ago; checking a
   * schedule costs milliseconds, which adds up over an import of hundreds of tasks.
   */
  schedulesChecked?: boolean;
}

/** A task that breaks the rules; the API answers 400 with every problem. */
export class InvalidTaskException extends ValidationFailed {
  constructor(readonly problems: string[]) {
    super(problems.join('; '), taskProblemFields(problems));
  }
}

/**
 * Sign and listen tasks: validation on every write, the documents in the database (TaskStore), and
 * a change stream. The scheduler, the runner and the keyword listeners depend on this API:
 *
 * - `list(filter?)`, `get(name)`, `require(name)` read tasks from memory, as of the last refresh
 *   (at most a second old for writes of another replica); a request handler calls `fresh()` first,
 *   which brings in every write committed before it (one primary-key read when nothing changed);
 * - writes are async: they refresh first, then commit, then update memory;
 * - `accountsOf(task)` resolves `account_name` / `account_names` (`"*"` = every stored account);
 * - `onTasksChanged(listener)` (or the `changes` observable) is told after every write, with the
 *   change type and the task names, including writes by another replica (seen by TaskStore's
 *   refresh); it returns the unsubscribe function.
 */
@Injectable()
export class SignTasksService {
  private readonly logger = new Logger(SignTasksService.name);
  private readonly changeSubject = new Subject<TaskChange>();
  /** Every change of the task store, after the write. */
  readonly changes: Observable<TaskChange> = this.changeSubject.asObservable();

  constructor(
    private readonly store: TaskStore,
    private readonly accounts: AccountStore,
  ) {
    // Another replica on the same database changed tasks.
    this.store.onExternalChange((change) => {
      if (change.created.length) this.emit({ type: 'created', names: change.created });
      if (change.updated.length) this.emit({ type: 'updated', names: change.updated });
      if (change.deleted.length) this.emit({ type: 'deleted', names: change.deleted });
      if (change.lastRun.length) this.emit({ type: 'last_run', names: change.lastRun });
    });
  }

  list(filter: TaskListFilter = {}): SignTask[] {
    return this.store
      .all()
      .filter((task) => filter.enabled === undefined || task.enabled === filter.enabled)
      .filter((task) => filter.execution_mode === undefined || task.execution_mode === filter.execution_mode)
      .filter((task) => filter.account === undefined || this.namesAccount(task, filter.account))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): SignTask | undefined {
    return isTaskName(name) ? this.store.get(name) : undefined;
  }

  /** The task; ValidationFailed for a name that is not path-safe, TaskNotFound when there is none. */
  require(name: string): SignTask {
    assertTaskName(name);
    const task = this.store.get(name);
    if (!task) throw new TaskNotFound(name);
    return task;
  }

  /** The accounts a task runs for, in a stable order. */
  accountsOf(task: Pick<SignTask, 'account_name' | 'account_names'>): string[] {
    if (task.account_names?.includes('*')) return this.accounts.names();
    const names = task.account_names ?? (task.account_name ? [task.account_name] : []);
    return [...new Set(names)];
  }

  onTasksChanged(listener: TaskChangeListener): () => void {
    const subscription = this.changes.subscribe({
      next: (change) => {
        try {
          listener(change);
        } catch (error) {
          this.logger.error({ err: error }, 'A task change listener failed');
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  /** Brings in every task write committed before this call, here or on another replica. */
  async fresh(): Promise<void> {
    await this.store.refresh();
  }

  async create(input: SignTaskInput, options: WriteOptions = {}): Promise<SignTask> {
    const checked = this.check(input, options);
    await this.fresh();
    if (this.store.has(checked.name)) throw new TaskExists(checked.name);
    const now = new Date().toISOString();
    const task: SignTask = { ...withDefaults(checked), last_run: null, created_at: now, updated_at: now };
    await this.store.save(task, { mustBeNew: true });
    this.emit({ type: 'created', names: [task.name] });
    return task;
  }

  /** Replaces the whole task (PUT); the name in the body, when given, must be the path's. */
  async replace(name: string, input: SignTaskInput, options: WriteOptions = {}): Promise<SignTask> {
    await this.fresh();
    const existing = this.require(name);
    if (input.name !== undefined && input.name !== name) throw ValidationFailed.ofField(
        'name in the body must match the task in the path (use clone to rename)',
        'name',
        'rename_by_clone',
        'A task cannot be renamed in place: clone it under the new name, then delete the old one.',
      );
    const checked = this.check({ ...input, name }, options);
    const task: SignTask = { ...withDefaults(checked), last_run: existing.last_run, created_at: existing.created_at, updated_at: new Date().toISOString() };
    await this.store.save(task);
    this.emit({ type: 'updated', names: [name] });
    return task;
  }

  /**
   * Writes several tasks as one change (a configuration import): every task is checked first, then
   * all are saved, and listeners hear one `imported` change, so the scheduler and the keyword
   * listeners re-sync once instead of once per task. A failed save puts back what was saved. Returns
   * how to undo the whole write (the caller's later step may fail).
   */
  async writeMany(inputs: SignTaskInput[], options: WriteOptions = {}): Promise<() => Promise<void>> {
    const checked = inputs.map((input) => this.check(input, options));
    await this.fresh();
    const now = new Date().toISOString();
    const previous = checked.map((input) => this.store.get(input.name));
    const tasks: SignTask[] = checked.map((input, index) => {
      const existing = previous[index];
      return existing
        ? { ...withDefaults(input), last_run: existing.last_run, created_at: existing.created_at, updated_at: now }
        : { ...withDefaults(input), last_run: null, created_at: now, updated_at: now };
    });
    await this.store.saveMany(tasks);
    const names = checked.map((input) => input.name);
    this.emit({ type: 'imported', names });
    return async () => {
      await this.store.saveMany(previous.filter((task): task is SignTask => task !== undefined));
      for (const [index, name] of names.entries()) if (!previous[index]) await this.store.remove(name);
      this.emit({ type: 'imported', names });
    };
  }

  async remove(name: string): Promise<void> {
    assertTaskName(name);
    await this.fresh();
    if (!(await this.store.remove(name))) throw new TaskNotFound(name);
    this.emit({ type: 'deleted', names: [name] });
  }

  async clone(name: string, newName: string): Promise<SignTask> {
    await this.fresh();
    const source = this.require(name);
    if (!isTaskName(newName)) throw new InvalidTaskException([`new_name must be ${TASK_NAME_RULE}`]);
    if (this.store.has(newName)) throw new TaskExists(newName);
    const now = new Date().toISOString();
    const task: SignTask = { ...structuredClone(source), name: newName, last_run: null, created_at: now, updated_at: now };
    await this.store.save(task, { mustBeNew: true });
    this.emit({ type: 'created', names: [newName] });
    return task;
  }

  async setEnabled(name: string, enabled: boolean): Promise<SignTask> {
    await this.fresh();
    const existing = this.require(name);
    if (existing.enabled === enabled) return existing;
    const task: SignTask = { ...existing, enabled, updated_at: new Date().toISOString() };
    await this.store.save(task);
    this.emit({ type: enabled ? 'enabled' : 'disabled', names: [name] });
    return task;
  }

  /**
   * Records the outcome of the latest run in the stored document (no-op when the task is gone).
   * `fence` runs first in the same transaction (replicas: the run's account lease); when it throws, nothing changes.
   */
  async recordLastRun(name: string, lastRun: TaskLastRun, fence?: (manager: EntityManager) => Promise<void>): Promise<void> {
    if (!(await this.store.updateLastRun(name, lastRun, fence))) return;
    this.emit({ type: 'last_run', names: [name] });
  }

  /**
   * Looks at the stored tasks now (a timer does so every second anyway), for an instance that just
   * became the scheduler lock holder. Listeners hear about what another replica changed, if anything.
   */
  reloadFromDisk(): Promise<void> {
    return this.fresh();
  }

  private check(input: SignTaskInput, options: WriteOptions): SignTaskInput {
    const task = normaliseTask(input);
    const problems = [...taskRuleProblems(task, { checkSchedule: !options.schedulesChecked }), ...(options.allowMissingPushSecrets ? [] : pushSecretProblems(task))];
    if (problems.length) throw new InvalidTaskException(problems);
    return task;
  }

  private namesAccount(task: SignTask, account: string): boolean {
    if (task.account_names?.includes('*')) return true;
    return task.account_name === account || (task.account_names ?? []).includes(account);
  }

  private emit(change: TaskChange): void {
    this.changeSubject.next(change);
  }
}

export function assertTaskName(name: unknown): string {
  if (!isTaskName(name)) throw new InvalidTaskException([`task name must be ${TASK_NAME_RULE}`]);
  return name;
}
