import { Module } from '@nestjs/common';
import { CHANNEL_TEST_SENDER, NotifyChannelTestSender } from './channel-test-sender';
import { NotificationChannelRepository } from './notification-channel.repository';
import { NotificationChannelsController } from './notification-channels.controller';
import { NotificationChannelsService } from './notification-channels.service';

/** Notification channels; the notifier injects NotificationChannelsService.deliverableChannels(). */
@Module({
  controllers: [NotificationChannelsController],
  providers: [NotificationChannelsService, NotificationChannelRepository, { provide: CHANNEL_TEST_SENDER, useClass: NotifyChannelTestSender }],
  exports: [NotificationChannelsService, NotificationChannelRepository],
})
export class NotificationChannelsModule {}
