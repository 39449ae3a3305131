import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { overridableProvider } from '../common/provider-overrides';
import { SettingsModule } from '../settings/settings.module';
import { AccountGovernor } from './account-governor';
import { AccountSafety } from './entities/account-safety.entity';
import { GOVERNOR_CLOCK, SYSTEM_CLOCK } from './governor-clock';

/** The account safety governor alone (AccountsModule puts it in front of the Telegram port). */
@Module({
  imports: [SettingsModule, TypeOrmModule.forFeature([AccountSafety])],
  providers: [AccountGovernor, overridableProvider(GOVERNOR_CLOCK, () => SYSTEM_CLOCK)],
  exports: [AccountGovernor],
})
export class GovernorModule {}
