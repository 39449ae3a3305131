import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql } from '../../database/sql';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { WorkflowRunEntity } from './workflow-run.entity';

export interface WorkflowRunFilter {
  repositoryId?: number;
  conclusion?: string;
  status?: string;
  /** Text in the workflow name, branch or commit SHA, ignoring case. */
  text?: string;
}

/** A workflow run as GitHub reports it, as stored (one row per run id, every attempt on it). */
export interface WorkflowRunState {
  runId: number;
  repositoryId: number;
  workflowName: string;
  headBranch: string | null;
  headSha: string | null;
  triggerEvent: string | null;
  status: string;
  conclusion: string | null;
  runAttempt: number;
  htmlUrl: string;
}

/** The recorded workflow runs: the console's list, and the writes of processing inside its transaction. */
@Injectable()
export class WorkflowRunRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Most recently updated first. */
  async find(filter: WorkflowRunFilter, window: PageWindow): Promise<FoundRows<WorkflowRunEntity>> {
    const builder = this.database.dataSource.getRepository(WorkflowRunEntity).createQueryBuilder('run');
    if (filter.repositoryId) builder.andWhere('run.repositoryId = :repositoryId', { repositoryId: filter.repositoryId });
    if (filter.conclusion) builder.andWhere('run.conclusion = :conclusion', { conclusion: filter.conclusion });
    if (filter.status) builder.andWhere('run.status = :status', { status: filter.status });
    whereContains(builder, ['run.workflowName', 'run.headBranch', 'run.headSha'], filter.text);
    const [rows, total] = await builder
      .orderBy('run.updatedAt', 'DESC')
      .addOrderBy('run.id', 'DESC')
      .skip(window.skip)
      .take(window.perPage)
      .getManyAndCount();
    return { rows, total };
  }

  /** How many runs with one of `conclusions` were last updated since `since` (and before `until`, when given). */
  async countConcluded(conclusions: readonly string[], since: Date, until?: Date): Promise<number> {
    const rows = await this.database.rows<{ count: string | number }>(
      sql`SELECT COUNT(*) AS "count" FROM "workflow_runs" WHERE "updated_at" >= ${since} ${until ? sql`AND "updated_at" < ${until}` : sql``} AND "conclusion" IN (${conclusions})`,
    );
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * The latest other completed run of the same workflow on the same branch (no branch matches no
   * branch): what a success recovers from.
   */
  previousCompleted(manager: EntityManager, run: Pick<WorkflowRunState, 'runId' | 'repositoryId' | 'workflowName' | 'headBranch'>): Promise<WorkflowRunEntity | null> {
    return manager
      .getRepository(WorkflowRunEntity)
      .createQueryBuilder('run')
      .where('run.repository_id = :repositoryId', { repositoryId: run.repositoryId })
      .andWhere('run.workflow_name = :workflowName', { workflowName: run.workflowName })
      .andWhere(run.headBranch === null ? 'run.head_branch IS NULL' : 'run.head_branch = :headBranch', { headBranch: run.headBranch })
      .andWhere('run.run_id <> :runId', { runId: run.runId })
      .andWhere("run.status = 'completed'")
      .orderBy('run.updated_at', 'DESC')
      .addOrderBy('run.id', 'DESC')
      .getOne();
  }

  /** Creates or refreshes the run (its repository stays the one it was first seen in) and answers the row. */
  async upsert(manager: EntityManager, run: WorkflowRunState, now: Date): Promise<WorkflowRunEntity> {
    const store = manager.getRepository(WorkflowRunEntity);
    const { runId, repositoryId, ...state } = run;
    const row = (await store.findOne({ where: { runId } })) ?? store.create({ runId, repositoryId, createdAt: now });
    Object.assign(row, state, { updatedAt: now });
    return store.save(row);
  }
}
