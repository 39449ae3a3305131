import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A GitHub App installation on a user or organisation account. */
@Entity('github_installations')
export class InstallationEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'installation_id', type: 'bigint', unique: true }) installationId!: number;
  @Column({ name: 'account_login', type: 'varchar', length: 255 }) accountLogin!: string;
  @Column({ name: 'account_type', type: 'varchar', length: 32 }) accountType!: string;
  @Column({ name: 'repository_selection', type: 'varchar', length: 16, default: 'selected' }) repositorySelection!: string;
  @Column({ type: 'boolean', default: false }) suspended!: boolean;
  @Column({ name: 'removed_at', type: Date, nullable: true }) removedAt!: Date | null;
  @Column({ name: 'last_reconciled_at', type: Date, nullable: true }) lastReconciledAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
