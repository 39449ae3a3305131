import { Global, Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { ConfigSectionRegistry } from './config-sections';
import { ConfigTransferController } from './config-transfer.controller';
import { ConfigTransferService } from './config-transfer.service';
import { AccountsModule } from '../accounts/accounts.module';

/**
 * Configuration JSON export, preview and import in the reference panel's shape. Global so features
 * can inject ConfigSectionRegistry and register after-import hooks (the keyword listeners restart).
 */
@Global()
@Module({
  imports: [SettingsModule, SignTasksModule, AccountsModule],
  controllers: [ConfigTransferController],
  providers: [ConfigSectionRegistry, ConfigTransferService],
  exports: [ConfigSectionRegistry, ConfigTransferService],
})
export class ConfigTransferModule {}
