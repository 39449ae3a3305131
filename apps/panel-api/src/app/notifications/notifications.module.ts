import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { SettingsModule } from '../settings/settings.module';
import { EventNotificationsService } from './event-notifications.service';
import { NotificationsController } from './notifications.controller';
import { PanelNotifier } from './panel-notifier.service';

/** Bot notifications with the saved settings; import it and inject PanelNotifier to notify. */
@Module({
  imports: [SettingsModule, AccountsModule, AuthModule],
  controllers: [NotificationsController],
  providers: [PanelNotifier, EventNotificationsService],
  exports: [PanelNotifier],
})
export class NotificationsModule {}
