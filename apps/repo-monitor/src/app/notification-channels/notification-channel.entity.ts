import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CHANNEL_KINDS = ['telegram', 'http_webhook', 'discord', 'slack', 'teams', 'ntfy', 'bark', 'gotify', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/**
 * A notification target. `config` is JSON (ChannelConfig: chat id, URL, SMTP settings); `secret` is an
 * envelope (bot token, signing secret, a webhook URL that carries its token, an app token, a password).
 */
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

  /** When the last test message was sent through the channel, and whether it arrived. */
  @Column({ name: 'last_test_at', type: Date, nullable: true })
  lastTestAt!: Date | null;

  @Column({ name: 'last_test_ok', type: Boolean, nullable: true })
  lastTestOk!: boolean | null;

  @Column({ name: 'last_test_error', type: 'varchar', length: 500, nullable: true })
  lastTestError!: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
