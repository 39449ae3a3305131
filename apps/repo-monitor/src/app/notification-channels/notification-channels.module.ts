import { Module } from '@nestjs/common';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { CHANNEL_TEST_SENDER, NotifyChannelTestSender } from './channel-test-sender';
import { NotificationChannelsController } from './notification-channels.controller';
import { NotificationChannelsService } from './notification-channels.service';

/** Notification channels; the notifier injects NotificationChannelsService.deliverableChannels(). */
@Module({
  imports: [GithubAppSettingsModule],
  controllers: [NotificationChannelsController],
  providers: [NotificationChannelsService, { provide: CHANNEL_TEST_SENDER, useClass: NotifyChannelTestSender }],
  exports: [NotificationChannelsService],
})
export class NotificationChannelsModule {}
