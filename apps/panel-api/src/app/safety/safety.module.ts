import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { GovernorModule } from '../governor/governor.module';
import { SafetyController } from './safety.controller';
import { SafetyNotifications } from './safety-notifications.service';

/** The account safety governor's API (state, resume) and its pause notice. */
@Module({
  imports: [GovernorModule, AccountsModule, NotificationsModule],
  controllers: [SafetyController],
  providers: [SafetyNotifications],
})
export class SafetyModule {}
