import { Inject, Injectable } from '@nestjs/common';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SettingsChanges } from '../settings/settings-changes';
import { NotificationChannelsService } from '../notification-channels/notification-channels.service';
import { DatabaseWork } from '../../database/database-work';
import { ShortCache } from '../common/short-cache';
import { SECRET_URL_KINDS } from '../notification-channels/channel-senders';
import { kindFilterWants, RoutableChannel } from '../notification-rules/rule-matcher';

export type { ChannelKind } from '../notification-channels/notification-channel.entity';
import type { ChannelKind } from '../notification-channels/notification-channel.entity';
import type { ChannelConfig } from '../notification-channels/channel-senders';

/** An enabled notification channel with its secret in clear, as the outbox worker needs it. */
export interface ChannelDescriptor {
  id: string;
  kind: ChannelKind;
  /** telegram: bot token; http_webhook: signing secret; discord, slack, teams, bark: the webhook URL; gotify, ntfy: token; email: password. */
  secret: string;
  /** telegram: chat id; http_webhook: target URL; others: what identifies the target (empty: not deliverable). */
  target: string;
  /** The kind's settings (ntfy/gotify URL, SMTP settings). */
  config: ChannelConfig;
  allowPrivate: boolean;
  /** Event kinds (`issues.opened`, `issues`, `security`…) this channel wants; empty: all. */
  eventKinds: string[];
  /** telegram: the forum topic messages go to unless a rule names another; null: the chat itself. */
  threadId: number | null;
}

/** Where the enabled channels come from. */
export abstract class NotificationChannelSource {
  abstract enabledChannels(): Promise<ChannelDescriptor[]>;
  abstract channel(id: string): Promise<ChannelDescriptor | undefined>;
}

/** Whether a channel's event-kind filter lets an event through (exact kind, its family, or its category). */
export function channelWants(channel: ChannelDescriptor, kind: string, category: string): boolean {
  return kindFilterWants(channel.eventKinds, kind, category);
}

export function routableChannel(channel: ChannelDescriptor): RoutableChannel {
  return { id: channel.id, kind: channel.kind, enabled: true, eventKinds: channel.eventKinds, defaultThreadId: channel.threadId };
}

function targetOf(channel: { kind: ChannelKind; chatId?: string; url?: string; secret: string; config: ChannelConfig }): string {
  if (channel.kind === 'telegram') return channel.chatId ?? '';
  if (channel.kind === 'email') return channel.config.smtp_host ?? '';
  if (SECRET_URL_KINDS.includes(channel.kind)) return channel.secret;
  return channel.url ?? '';
}

/** The console's enabled channels (secrets decrypted), as the outbox worker needs them. */
@Injectable()
export class ConsoleChannelSource extends NotificationChannelSource {
  private readonly cache: ShortCache<ChannelDescriptor[]>;

  constructor(channels: NotificationChannelsService, database: DatabaseWork, @Inject(MONITOR_CONFIG) config: MonitorConfig, changes: SettingsChanges) {
    super();
    this.cache = new ShortCache(async () =>
      (await channels.deliverableChannels())
        .map((channel) => ({
          id: channel.id,
          kind: channel.kind,
          secret: channel.secret,
          target: targetOf(channel),
          config: channel.config,
          allowPrivate: channel.allowPrivate,
          eventKinds: channel.eventKinds,
          threadId: channel.messageThreadId ?? null,
        }))
        .filter((channel) => channel.target !== ''),
      config.settings.refreshMs,
      () => database.holdsSqliteConnection(),
    );
    changes.subscribe('channels', () => this.cache.clear());
  }

  enabledChannels(): Promise<ChannelDescriptor[]> {
    return this.cache.get();
  }

  async channel(id: string): Promise<ChannelDescriptor | undefined> {
    return (await this.cache.get()).find((channel) => channel.id === id);
  }
}
