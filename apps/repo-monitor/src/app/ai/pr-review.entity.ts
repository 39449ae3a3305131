import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PrReviewStatus = 'pending' | 'running' | 'completed' | 'failed';
export const MERGE_RISKS = ['low', 'medium', 'high'] as const;
export type MergeRisk = (typeof MERGE_RISKS)[number];

/** One AI review and security audit of a pull request at one head commit (unique per repository, PR and SHA). */
@Entity('ai_pr_reviews')
export class PrReviewEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'repository_full_name', type: 'varchar', length: 255 }) repositoryFullName!: string;
  @Column({ name: 'pr_number', type: 'integer' }) prNumber!: number;
  @Column({ name: 'head_sha', type: 'varchar', length: 64 }) headSha!: string;
  @Column({ type: 'varchar', length: 1024 }) title!: string;
  @Column({ name: 'html_url', type: 'varchar', length: 512 }) htmlUrl!: string;
  @Column({ name: 'installation_id', type: 'bigint', nullable: true }) installationId!: number | null;
  @Column({ type: 'varchar', length: 16 }) status!: PrReviewStatus;
  @Column({ type: 'text', nullable: true }) summary!: string | null;
  @Column({ type: 'integer', nullable: true }) score!: number | null;
  @Column({ name: 'merge_risk', type: 'varchar', length: 16, nullable: true }) mergeRisk!: MergeRisk | null;
  /** JSON arrays of strings. */
  @Column({ name: 'security_risks', type: 'text', default: '[]' }) securityRisks!: string;
  @Column({ name: 'breaking_risks', type: 'text', default: '[]' }) breakingRisks!: string;
  @Column({ type: 'text', default: '[]' }) suggestions!: string;
  @Column({ name: 'missing_tests', type: 'text', default: '[]' }) missingTests!: string;
  @Column({ name: 'diff_truncated', type: 'boolean', default: false }) diffTruncated!: boolean;
  @Column({ name: 'diff_chars', type: 'integer', default: 0 }) diffChars!: number;
  @Column({ type: 'varchar', length: 200, nullable: true }) model!: string | null;
  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true }) errorCode!: string | null;
  @Column({ name: 'error_message', type: 'varchar', length: 500, nullable: true }) errorMessage!: string | null;
  @Column({ type: 'boolean', default: false }) alerted!: boolean;
  @Column({ name: 'comment_id', type: 'bigint', nullable: true }) commentId!: number | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
  @Column({ name: 'completed_at', type: Date, nullable: true }) completedAt!: Date | null;
}
