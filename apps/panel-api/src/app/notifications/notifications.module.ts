import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { NotificationsController } from './notifications.controller';
import { PanelNotifier } from './panel-notifier.service';

/** Bot notifications with the saved settings; import it and inject PanelNotifier to notify. */
@Module({
  imports: [SettingsModule],
  controllers: [NotificationsController],
  providers: [PanelNotifier],
  exports: [PanelNotifier],
})
export class NotificationsModule {}
