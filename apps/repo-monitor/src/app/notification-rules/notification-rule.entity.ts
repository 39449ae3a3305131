import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A routing rule; `match` and `route` are JSON (RuleMatch, RuleRoute). Consulted in `position` order. */
@Entity({ name: 'notification_rules' })
export class NotificationRuleEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ type: 'integer' }) position!: number;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: Boolean }) enabled!: boolean;
  @Column({ type: 'text' }) match!: string;
  @Column({ type: 'text' }) route!: string;
  @Column({ type: Boolean }) stop!: boolean;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
