import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type RepositorySource = 'installation' | 'external';
export type RepositoryStatus = 'active' | 'archived' | 'removed';

/** A watched repository, from an installation or added as an external public repository. */
@Entity('repositories')
export class RepositoryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'github_id', type: 'bigint', nullable: true, unique: true }) githubId!: number | null;
  @Column({ name: 'full_name', type: 'varchar', length: 255, unique: true }) fullName!: string;
  @Column({ name: 'html_url', type: 'varchar', length: 512 }) htmlUrl!: string;
  @Column({ type: 'boolean', default: false }) private!: boolean;
  @Column({ type: 'varchar', length: 16 }) source!: RepositorySource;
  @Column({ name: 'installation_id', type: 'bigint', nullable: true }) installationId!: number | null;
  @Column({ type: 'varchar', length: 16, default: 'active' }) status!: RepositoryStatus;
  @Column({ name: 'notify_issues', type: 'boolean', default: true }) notifyIssues!: boolean;
  @Column({ name: 'notify_pull_requests', type: 'boolean', default: true }) notifyPullRequests!: boolean;
  @Column({ name: 'notify_workflow_runs', type: 'boolean', default: true }) notifyWorkflowRuns!: boolean;
  @Column({ name: 'notify_security_alerts', type: 'boolean', default: true }) notifySecurityAlerts!: boolean;
  @Column({ name: 'notify_releases', type: 'boolean', default: true }) notifyReleases!: boolean;
  @Column({ name: 'notify_stars', type: 'boolean', default: true }) notifyStars!: boolean;
  @Column({ name: 'baseline_imported_at', type: Date, nullable: true }) baselineImportedAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
