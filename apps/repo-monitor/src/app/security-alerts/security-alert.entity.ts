import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const SECURITY_ALERT_KINDS = ['dependabot', 'code_scanning', 'secret_scanning'] as const;
export type SecurityAlertKind = (typeof SECURITY_ALERT_KINDS)[number];

/** A Dependabot, code scanning or secret scanning alert; unique per repository, kind and number. */
@Entity('security_alerts')
export class SecurityAlertEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'repository_id', type: 'integer' }) repositoryId!: number;
  @Column({ type: 'varchar', length: 32 }) kind!: SecurityAlertKind;
  @Column({ type: 'integer' }) number!: number;
  @Column({ type: 'varchar', length: 32 }) state!: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) severity!: string | null;
  @Column({ type: 'varchar', length: 1024 }) summary!: string;
  @Column({ name: 'html_url', type: 'varchar', length: 512 }) htmlUrl!: string;
  @Column({ type: 'boolean', default: false }) ignored!: boolean;
  @Column({ name: 'ignored_at', type: Date, nullable: true }) ignoredAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
