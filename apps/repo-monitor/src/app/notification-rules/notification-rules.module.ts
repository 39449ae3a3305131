import { Module } from '@nestjs/common';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { NotificationRuleRepository } from './notification-rule.repository';
import { NotificationRulesController } from './notification-rules.controller';
import { NotificationRulesService } from './notification-rules.service';

/** Routing rules; the notifier's NotificationRouter reads NotificationRulesService.routingRules(). */
@Module({
  imports: [NotificationChannelsModule],
  controllers: [NotificationRulesController],
  providers: [NotificationRulesService, NotificationRuleRepository],
  exports: [NotificationRulesService, NotificationRuleRepository],
})
export class NotificationRulesModule {}
