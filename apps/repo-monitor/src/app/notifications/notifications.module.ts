import { Module } from '@nestjs/common';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { NotificationRulesModule } from '../notification-rules/notification-rules.module';
import { NotificationRouter } from './notification-router';
import { EventRoutingController, NotificationRulesDryRunController } from './event-routing.controller';
import { OutboxModule } from '../outbox/outbox.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { ConsoleChannelSource, NotificationChannelSource } from './notification-channels';
import { NotificationOutboxService } from './notification-outbox.service';
import { NotificationWorker } from './notification-worker';
import { NotificationsController } from './notifications.controller';

@Module({
  imports: [NotificationChannelsModule, NotificationRulesModule, OutboxModule, SystemSettingsModule],
  controllers: [NotificationsController, EventRoutingController, NotificationRulesDryRunController],
  providers: [{ provide: NotificationChannelSource, useClass: ConsoleChannelSource }, NotificationOutboxService, NotificationWorker, NotificationRouter],
  exports: [NotificationOutboxService, NotificationWorker, NotificationChannelSource],
})
export class NotificationsModule {}
