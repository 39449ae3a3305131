import { Global, Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { ConfigSectionRegistry } from './config-sections';
import { ConfigTransferController } from './config-transfer.controller';
import { ConfigTransferService } from './config-transfer.service';

/**
 * Configuration JSON export, preview and import. Global so the task features can inject
 * ConfigSectionRegistry and register their sections and after-import hooks.
 */
@Global()
@Module({
  imports: [SettingsModule],
  controllers: [ConfigTransferController],
  providers: [ConfigSectionRegistry, ConfigTransferService],
  exports: [ConfigSectionRegistry, ConfigTransferService],
})
export class ConfigTransferModule {}
