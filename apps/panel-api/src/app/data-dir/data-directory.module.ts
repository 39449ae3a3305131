import { Global, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from './data-directory';
import { otherInstanceHoldsLock, sweepLeftovers } from './leftovers';

/**
 * Provides the data directory layout to every feature, creates its folders at startup (on
 * PostgreSQL too) and removes what a crash left half-written (see sweepLeftovers).
 */
@Global()
@Module({
  providers: [
    {
      provide: DataDirectory,
      inject: [PANEL_CONFIG],
      useFactory: (config: PanelConfig) => new DataDirectory(config.dataDir),
    },
  ],
  exports: [DataDirectory],
})
export class DataDirectoryModule implements OnModuleInit {
  private readonly logger = new Logger(DataDirectoryModule.name);

  constructor(@Inject(DataDirectory) private readonly dataDirectory: DataDirectory) {}

  onModuleInit(): void {
    this.dataDirectory.prepare();
    const removed = sweepLeftovers(this.dataDirectory.root, { otherInstanceAlive: otherInstanceHoldsLock(this.dataDirectory.schedulerLockFile) });
    if (removed.length > 0) this.logger.warn(`Removed ${removed.length} leftover file(s) of interrupted writes: ${removed.join(', ')}`);
  }
}
