import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { SettingsModule } from '../settings/settings.module';
import { ChannelTestsService } from './channel-tests.service';
import { ChannelTest } from './entities/channel-test.entity';
import { EventNotificationsService } from './event-notifications.service';
import { NotificationsController } from './notifications.controller';
import { PanelNotifier } from './panel-notifier.service';

/** Bot notifications with the saved settings; import it and inject PanelNotifier to notify. */
@Module({
  imports: [SettingsModule, AccountsModule, AuthModule, TypeOrmModule.forFeature([ChannelTest])],
  controllers: [NotificationsController],
  providers: [PanelNotifier, EventNotificationsService, ChannelTestsService],
  exports: [PanelNotifier],
})
export class NotificationsModule {}
