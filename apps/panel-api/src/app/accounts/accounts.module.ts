import { SessionCipher } from './session-cipher';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckJobRow } from './entities/check-job-row.entity';
import { TelegramModule } from '../telegram/telegram.module';
import { GovernorModule } from '../governor/governor.module';
import { AccountCheckJobsService } from './account-check-jobs.service';
import { AccountLoginController } from './account-login.controller';
import { AccountLoginService } from './account-login.service';
import { AccountSessionsService } from './account-sessions.service';
import { AccountStatusController } from './account-status.controller';
import { AccountStatusService } from './account-status.service';
import { AccountStore } from './account-store';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';

/**
 * Telegram accounts: records and sessions under sessions/, logins, status checks and check jobs.
 * Other features act as an account through AccountSessionsService (exported with the store).
 */
@Module({
  imports: [TelegramModule, GovernorModule, TypeOrmModule.forFeature([CheckJobRow])],
  // Status and login routes are static paths under /api/accounts; they are registered before the
  // `:account_name` routes so that the router never mistakes them for an account.
  controllers: [AccountStatusController, AccountLoginController, AccountsController],
  providers: [SessionCipher, AccountStore, AccountSessionsService, AccountsService, AccountLoginService, AccountStatusService, AccountCheckJobsService],
  exports: [AccountStore, AccountSessionsService, TelegramModule, GovernorModule],
})
export class AccountsModule {}
