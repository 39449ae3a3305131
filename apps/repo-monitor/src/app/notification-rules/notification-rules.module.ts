import { Module } from '@nestjs/common';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { NotificationTemplatesModule } from '../notification-templates/notification-templates.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { EventRoutingController, NotificationRulesDryRunController } from './event-routing.controller';
import { NotificationRouter } from './notification-router';
import { NotificationRuleRepository } from './notification-rule.repository';
import { NotificationRulesController } from './notification-rules.controller';
import { NotificationRulesService } from './notification-rules.service';

/** Routing rules, the router the notifier asks where an event goes, and the explanations of where events went. */
@Module({
  imports: [NotificationChannelsModule, NotificationTemplatesModule, OutboxModule, SystemSettingsModule],
  controllers: [NotificationRulesController, EventRoutingController, NotificationRulesDryRunController],
  providers: [NotificationRulesService, NotificationRuleRepository, NotificationRouter],
  exports: [NotificationRulesService, NotificationRuleRepository, NotificationRouter, NotificationTemplatesModule],
})
export class NotificationRulesModule {}
