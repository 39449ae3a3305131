import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A GitHub Actions workflow run as last seen. */
@Entity('workflow_runs')
export class WorkflowRunEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'repository_id', type: 'integer' }) repositoryId!: number;
  @Column({ name: 'run_id', type: 'bigint', unique: true }) runId!: number;
  @Column({ name: 'workflow_name', type: 'varchar', length: 255 }) workflowName!: string;
  @Column({ name: 'head_branch', type: 'varchar', length: 255, nullable: true }) headBranch!: string | null;
  @Column({ name: 'head_sha', type: 'varchar', length: 64, nullable: true }) headSha!: string | null;
  @Column({ name: 'trigger_event', type: 'varchar', length: 64, nullable: true }) triggerEvent!: string | null;
  @Column({ type: 'varchar', length: 32 }) status!: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) conclusion!: string | null;
  @Column({ name: 'run_attempt', type: 'integer', default: 1 }) runAttempt!: number;
  @Column({ name: 'html_url', type: 'varchar', length: 512 }) htmlUrl!: string;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
