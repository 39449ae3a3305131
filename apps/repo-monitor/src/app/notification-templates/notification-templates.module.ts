import { Module } from '@nestjs/common';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { NotificationTemplateRepository } from './notification-template.repository';
import { NotificationTemplatesController } from './notification-templates.controller';
import { NotificationTemplatesService } from './notification-templates.service';

/** Message templates of channels and rules; the outbox renders notifications with NotificationTemplatesService. */
@Module({
  imports: [NotificationChannelsModule],
  controllers: [NotificationTemplatesController],
  providers: [NotificationTemplatesService, NotificationTemplateRepository],
  exports: [NotificationTemplatesService],
})
export class NotificationTemplatesModule {}
