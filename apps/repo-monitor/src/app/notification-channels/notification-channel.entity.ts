import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CHANNEL_KINDS = ['telegram', 'http_webhook'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A notification target. `config` is JSON ({chat_id} or {url}); `secret` is an envelope (bot token or signing secret). */
@Entity({ name: 'notification_channels' })
export class NotificationChannelEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: ChannelKind;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: Boolean })
  enabled!: boolean;

  @Column({ type: 'text' })
  config!: string;

  @Column({ type: 'text', nullable: true })
  secret!: string | null;

  @Column({ name: 'allow_private', type: Boolean })
  allowPrivate!: boolean;

  @Column({ name: 'event_kinds', type: 'text' })
  eventKinds!: string;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
