import { Global, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { ReadinessService } from '@shared/http-service';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from './data-directory';
import { otherInstanceHoldsLock, sweepLeftovers } from './leftovers';
import { DataDirectoryWritability } from './writability';

/**
 * Provides the data directory layout to every feature, creates its folders at startup (on
 * PostgreSQL too), removes what a crash left half-written (see sweepLeftovers) and reports on
 * /readyz whether it can still be written.
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

  constructor(
    @Inject(DataDirectory) private readonly dataDirectory: DataDirectory,
    private readonly readiness: ReadinessService,
  ) {}

  onModuleInit(): void {
    this.dataDirectory.prepare();
    const removed = sweepLeftovers(this.dataDirectory.root, { otherInstanceAlive: otherInstanceHoldsLock(this.dataDirectory.schedulerLockFile) });
    if (removed.length > 0) this.logger.warn(`Removed ${removed.length} leftover file(s) of interrupted writes: ${removed.join(', ')}`);
    // The spec's "read-only state" of /readyz: reported, not a 503 (reads, logins and runs that
    // write nothing still work, and an operator should see the panel to learn why it cannot save).
    const writability = new DataDirectoryWritability(this.dataDirectory.root);
    this.readiness.addDetail('data_directory', () => writability.check());
    this.readiness.addDetail('read_only', () => !writability.check().writable);
  }
}
