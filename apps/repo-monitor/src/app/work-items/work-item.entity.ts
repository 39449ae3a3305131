import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type WorkItemKind = 'issue' | 'pull_request';

/** An issue or pull request as last seen. */
@Entity('work_items')
export class WorkItemEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'repository_id', type: 'integer' }) repositoryId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: WorkItemKind;
  @Column({ type: 'integer' }) number!: number;
  @Column({ type: 'varchar', length: 1024 }) title!: string;
  @Column({ type: 'varchar', length: 16 }) state!: string;
  @Column({ type: 'boolean', default: false }) merged!: boolean;
  @Column({ type: 'boolean', default: false }) draft!: boolean;
  @Column({ type: 'varchar', length: 255, nullable: true }) author!: string | null;
  @Column({ name: 'html_url', type: 'varchar', length: 512 }) htmlUrl!: string;
  @Column({ name: 'github_updated_at', type: Date, nullable: true }) githubUpdatedAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
