import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { overridableProvider } from '../common/provider-overrides';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { ActionRunner } from './action-runner';
import { AI_CLIENT, OpenAiCompatibleClient } from './ai-client';
import { DEFAULT_RUN_TIMINGS, RUN_TIMINGS } from './run-timings';

/**
 * Running tasks: the action runner (actions 1-7 and 9 over the TelegramGateway and the AI port).
 * Keyword listeners import this module and inject ActionRunner for `continue` follow-ups.
 */
@Module({
  imports: [AccountsModule, SettingsModule, SignTasksModule],
  providers: [
    overridableProvider(AI_CLIENT, (settings: SettingsService) => new OpenAiCompatibleClient(settings), [SettingsService]),
    overridableProvider(RUN_TIMINGS, () => DEFAULT_RUN_TIMINGS),
    ActionRunner,
  ],
  exports: [ActionRunner, RUN_TIMINGS],
})
export class RunsModule {}
