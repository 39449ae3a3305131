import { ClusterEvents } from '../cluster/cluster-events';
import { ClusterService } from '../cluster/cluster.service';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { readJsonObjectFile } from '../data-dir/json-file-store';
import { entriesToImport, moveAsideImported } from '../data-dir/imported-files';
import { isTaskName, taskFileStem } from '../sign-tasks/task-validation';
import { FlowLogEntry } from './action-runner';
import { SignLog } from './entities/sign-log.entity';
import { RunRecord } from './run-registry';
import { PanelMetrics } from '../metrics/metrics.service';
import { RunMessageCode, runMessageFields } from '../common/run-outcomes';

/** The `sign_log` event of the live sign history stream. */
export interface SignLogEvent {
  run_id: string;
  account_name: string;
  task_name: string;
  success: boolean;
  message: string;
  created_at: string;
  failure_category: string;
  /** Runs of tasks that read the bot's answer: the verdict and the answer that decided it. */
  verdict?: string | null;
  verdict_text?: string | null;
}

/** A run that ended without a record of its own, as its account's owner records it. */
export interface InterruptedRun {
  runId: string;
  taskName: string;
  accountName: string;
  trigger: string;
  reason: string;
}

/** A finished run with its flow log (earlier versions kept it in `.signer/history/<task>/<run_id>.json`). */
export interface HistoryEntry {
  run_id: string;
  task_name: string;
  account_name: string;
  trigger: string;
  state: string;
  success: boolean;
  failure_category: string;
  message: string;
  attempts: number;
  verdict: string | null;
  verdict_text: string | null;
  started_at: string;
  finished_at: string;
  flow_log: FlowLogEntry[];
}

/** A history entry as the API answers it: with the code and parameters of a message the runner or a named error wrote (runMessageOf). */
export type HistoryView = HistoryEntry & { message_code: RunMessageCode | null; message_params: Record<string, string> };

/**
 * Persistent history of finished runs: a row in `sign_logs` with the run's full flow log, which
 * outlives the in-memory run status and is the same on every replica. Every recorded run is also
 * published on `events` for the SSE stream. The history files of earlier versions
 * (`.signer/history/<task>/<run_id>.json`) are imported into their rows once at the first start.
 */
@Injectable()
export class RunHistoryService implements OnModuleInit {
  private readonly logger = new Logger(RunHistoryService.name);
  private readonly eventSubject = new Subject<SignLogEvent>();
  readonly events = this.eventSubject.asObservable();

  constructor(
    private readonly dataDirectory: DataDirectory,
    @InjectRepository(SignLog) private readonly logs: Repository<SignLog>,
    private readonly metrics: PanelMetrics,
    private readonly cluster: ClusterService,
    private readonly clusterEvents: ClusterEvents,
  ) {
    // Replicas on PostgreSQL: the runs the others record join this replica's live stream.
    this.clusterEvents.onRemoteSignLog((event) => this.eventSubject.next(event));
  }

  async onModuleInit(): Promise<void> {
    await this.importHistoryFiles();
  }

  /**
   * Moves the flow logs of `.signer/history/<task>/<run_id>.json` into their `sign_logs` rows once:
   * a row that already has a flow log keeps it, a file without a row (its row was pruned) is left
   * in the renamed folder `.signer/history.imported-<time>`, and the log says what was imported.
   * Idempotent (only rows without a flow log are filled): replicas sharing the data directory may run
   * it at the same time, and the one that comes second to the rename finds the folder gone and goes on.
   */
  private async importHistoryFiles(): Promise<void> {
    const root = this.dataDirectory.signerHistory;
    if (!existsSync(root)) return;
    const folders = entriesToImport(root).filter((entry) => entry.isDirectory());
    const files = folders.flatMap((folder) =>
      entriesToImport(join(root, folder.name))
        .map((entry) => entry.name)
        .filter((name) => /^[0-9a-f-]{36}\.json$/.test(name))
        .map((name) => join(root, folder.name, name)),
    );
    if (!files.length) return;
    let imported = 0;
    let withoutRow = 0;
    let unreadable = 0;
    for (const file of files) {
      let entry: Partial<HistoryEntry> | undefined;
      try {
        entry = readJsonObjectFile(file) as Partial<HistoryEntry> | undefined;
      } catch {
        entry = undefined;
      }
      if (!entry || typeof entry.run_id !== 'string' || !Array.isArray(entry.flow_log)) {
        unreadable += 1;
        continue;
      }
      const result = await this.logs.update(
        { runId: entry.run_id, flowLog: IsNull() },
        { flowLog: JSON.stringify(entry.flow_log), startedAt: typeof entry.started_at === 'string' ? entry.started_at.slice(0, 40) : null },
      );
      if (result.affected) imported += 1;
      else withoutRow += 1;
    }
    const movedTo = `${root}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // Another replica sharing the data directory moved the folder (and made a new empty one) first.
    if (!existsSync(files[0]) || !moveAsideImported(root, movedTo)) {
      this.logger.log(`The flow logs in ${root} were imported by another replica sharing this data directory (${imported} run(s) filled in here)`);
      return;
    }
    mkdirSync(root, { recursive: true, mode: 0o700 });
    this.logger.log(
      `Imported the flow logs of ${imported} run(s) from ${root} into the database (${withoutRow} without a run in the history or already imported, ${unreadable} unreadable; the files are now in ${movedTo})`,
    );
  }

  /**
   * Writes the finished run's sign log row with `manager`, inside the caller's transaction: the caller
   * fences it (and writes the task's `last_run` in the same transaction), then calls `announce` once
   * it committed.
   */
  async store(manager: EntityManager, run: RunRecord, message: string): Promise<SignLogEvent> {
    const finishedAt = run.finished_at ?? new Date().toISOString();
    const saved = await manager.save(
      SignLog,
      manager.create(SignLog, {
        runId: run.run_id,
        taskName: run.task_name,
        accountName: run.account_name,
        success: run.success === true,
        state: run.state,
        failureCategory: run.failure_category,
        message,
        trigger: run.trigger,
        attempts: run.attempts,
        verdict: run.verdict,
        verdictText: run.verdict_text,
        createdAt: new Date(finishedAt),
        startedAt: run.started_at,
        flowLog: JSON.stringify([...run.logs]),
      }),
    );
    return {
      run_id: run.run_id,
      account_name: run.account_name,
      task_name: run.task_name,
      success: run.success === true,
      message,
      created_at: saved.createdAt.toISOString(),
      failure_category: run.failure_category,
      verdict: run.verdict,
      verdict_text: run.verdict_text,
    };
  }

  /** Writes a run's history row outside any fence (a run no other replica knows of; see TaskRunner). */
  async storeUnfenced(run: RunRecord, message: string): Promise<SignLogEvent> {
    return this.logs.manager.transaction((manager) => this.store(manager, run, message));
  }

  /** Counts a finished run in the metrics (also one whose record a lost lease refused). */
  countFinished(run: RunRecord): void {
    this.metrics.runFinished(run);
  }

  /** A stored run on the live history stream, here and on the other replicas (after its row committed). */
  async announce(event: SignLogEvent): Promise<void> {
    this.eventSubject.next(event);
    await this.clusterEvents.announceSignLog(event);
  }

  /**
   * A run that a replica started and never finished (the replica died or lost the account's lease):
   * recorded by the account's owner as `interrupted`, with the reason as its message.
   */
  async recordInterrupted(input: InterruptedRun): Promise<SignLogEvent> {
    const [event] = await this.recordInterruptedRuns(input.accountName, async () => [input]);
    return event;
  }

  /**
   * Records the runs `take` names as `interrupted`, in one transaction fenced by the account's lease:
   * `take` claims them in that transaction (a claim's state), so a refused fence or a failed row
   * leaves the claims as they were for the next owner, and a run is never recorded twice. Published
   * on the live history stream (here and on the other replicas) once committed.
   */
  async recordInterruptedRuns(accountName: string, take: (manager: EntityManager) => Promise<InterruptedRun[]>): Promise<SignLogEvent[]> {
    const saved = await this.logs.manager.transaction(async (manager) => {
      await this.cluster.assertOwned(manager, accountName);
      const rows: SignLog[] = [];
      for (const run of await take(manager)) {
        rows.push(
          await manager.save(
            SignLog,
            manager.create(SignLog, {
              runId: run.runId,
              taskName: run.taskName,
              accountName: run.accountName,
              success: false,
              state: 'interrupted',
              failureCategory: 'none',
              message: run.reason,
              trigger: run.trigger,
              attempts: 1,
              createdAt: new Date(),
            }),
          ),
        );
      }
      return rows;
    });
    const events: SignLogEvent[] = [];
    for (const row of saved) {
      this.metrics.runFinished({ success: false, state: 'interrupted', failure_category: 'none' });
      const event: SignLogEvent = {
        run_id: row.runId,
        account_name: row.accountName,
        task_name: row.taskName,
        success: false,
        message: row.message,
        created_at: row.createdAt.toISOString(),
        failure_category: 'none',
      };
      this.eventSubject.next(event);
      await this.clusterEvents.announceSignLog(event);
      events.push(event);
    }
    return events;
  }

  /** Publishes an event without a run (the benchmark's fan-out, tests of the stream). */
  publish(event: SignLogEvent): void {
    this.eventSubject.next(event);
  }

  /** The task's finished runs, newest first, with their flow logs from the history files. */
  async list(taskName: string, options: { limit: number; accountName?: string }): Promise<HistoryView[]> {
    const rows = await this.logs.find({
      where: { taskName, ...(options.accountName ? { accountName: options.accountName } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: options.limit,
    });
    return rows.map((row) => this.entryOf(row));
  }

  /** One finished run by id, with its flow log; undefined when no such run was recorded. */
  async find(runId: string): Promise<HistoryView | undefined> {
    const row = await this.logs.findOne({ where: { runId } });
    if (!row) return undefined;
    return this.entryOf(row);
  }

  /** A sign_logs row as a history entry (for a row older than the flow log column, the log from its history file when it is still there). */
  entryOf(row: SignLog): HistoryView {
    const flowLog = parseFlowLog(row.flowLog);
    const stored = flowLog === undefined && isTaskName(row.taskName) ? this.readEntry(row.taskName, row.runId) : undefined;
    return {
      run_id: row.runId,
      task_name: row.taskName,
      account_name: row.accountName,
      trigger: row.trigger,
      state: row.state,
      success: row.success,
      failure_category: row.failureCategory,
      message: row.message,
      ...runMessageFields({ message: row.message, success: row.success, failure_category: row.failureCategory }),
      attempts: row.attempts,
      verdict: row.verdict ?? null,
      verdict_text: row.verdictText ?? null,
      started_at: row.startedAt ?? stored?.started_at ?? row.createdAt.toISOString(),
      finished_at: stored?.finished_at ?? row.createdAt.toISOString(),
      flow_log: flowLog ?? stored?.flow_log ?? [],
    };
  }

  private readEntry(taskName: string, runId: string): HistoryEntry | undefined {
    if (!/^[0-9a-f-]{36}$/.test(runId)) return undefined;
    try {
      return readJsonObjectFile(join(this.folderOf(taskName), `${runId}.json`)) as unknown as HistoryEntry | undefined;
    } catch {
      return undefined;
    }
  }

  private folderOf(taskName: string): string {
    if (!isTaskName(taskName)) throw new Error(`Not a valid task name: ${JSON.stringify(taskName)}`);
    return join(this.dataDirectory.signerHistory, taskFileStem(taskName));
  }
}

/** The flow log stored in a row, or undefined when the row has none (or it is not a list). */
function parseFlowLog(text: string | null | undefined): FlowLogEntry[] | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as FlowLogEntry[]) : undefined;
  } catch {
    return undefined;
  }
}
