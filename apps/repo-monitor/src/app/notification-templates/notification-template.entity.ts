import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A message template: a channel's (channel_id) or a rule's (rule_id) own text for one event kind
 * (`*`, a family such as `issues`, or a kind such as `issues.opened`). `owner` (`channel:<id>` or
 * `rule:<id>`) keeps one template per owner, part and kind; the template goes with its channel or rule.
 * `part` is `message` (the text) or `title` (a push title or email subject).
 */
@Entity({ name: 'notification_templates' })
export class NotificationTemplateEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ type: 'varchar', length: 48 }) owner!: string;
  @Column({ name: 'channel_id', type: 'varchar', length: 36, nullable: true }) channelId!: string | null;
  @Column({ name: 'rule_id', type: 'varchar', length: 36, nullable: true }) ruleId!: string | null;
  @Column({ type: 'varchar', length: 8, default: 'message' }) part!: 'message' | 'title';
  @Column({ name: 'event_kind', type: 'varchar', length: 100 }) eventKind!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
