import { Global, Module } from '@nestjs/common';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { packageVersion } from '@shared/config';
import { MemoryMonitor } from './memory-monitor.service';
import { OpsController } from './ops.controller';
import { HttpReleaseFeed, RELEASE_FEED } from './release-feed';
import { RuntimeStatusRegistry } from './runtime-status.registry';
import { SystemJobGate } from './system-job-gate';
import { VersionService } from './version.service';

/**
 * Version, update check, memory and runtime status. Global so that every feature can inject
 * RuntimeStatusRegistry (to report its state) and SystemJobGate without importing this module.
 */
@Global()
@Module({
  controllers: [OpsController],
  providers: [
    RuntimeStatusRegistry,
    SystemJobGate,
    MemoryMonitor,
    VersionService,
    {
      provide: RELEASE_FEED,
      inject: [PANEL_CONFIG],
      useFactory: (config: PanelConfig) =>
        new HttpReleaseFeed(config.version.updateCheckUrl, `panel-api/${config.version.appVersion ?? packageVersion()}`),
    },
  ],
  exports: [RuntimeStatusRegistry, SystemJobGate, MemoryMonitor, VersionService],
})
export class OpsModule {}
