import { Global, Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { ConfigSectionRegistry } from './config-sections';
import { ConfigTransferController } from './config-transfer.controller';
import { ConfigTransferService } from './config-transfer.service';
import { SignTaskConfigSection } from './sign-task-section';

/**
 * Configuration JSON export, preview and import. Global so features can inject ConfigSectionRegistry
 * and register further sections and after-import hooks; the task store's `signs` section is built in.
 */
@Global()
@Module({
  imports: [SettingsModule, SignTasksModule],
  controllers: [ConfigTransferController],
  providers: [ConfigSectionRegistry, ConfigTransferService, SignTaskConfigSection],
  exports: [ConfigSectionRegistry, ConfigTransferService],
})
export class ConfigTransferModule {}
