import { Module } from '@nestjs/common';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { NotificationRulesModule } from '../notification-rules/notification-rules.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { ConsoleChannelSource, NotificationChannelSource } from './notification-channels';
import { NotificationOutboxService } from './notification-outbox.service';
import { NotificationWorker } from './notification-worker';
import { NotificationsController } from './notifications.controller';

@Module({
  imports: [NotificationChannelsModule, NotificationRulesModule, OutboxModule, SystemSettingsModule],
  controllers: [NotificationsController],
  providers: [{ provide: NotificationChannelSource, useClass: ConsoleChannelSource }, NotificationOutboxService, NotificationWorker],
  exports: [NotificationOutboxService, NotificationWorker, NotificationChannelSource],
})
export class NotificationsModule {}
