import { Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from './data-directory';

/** Provides the data directory layout to every feature and creates its folders at startup (on PostgreSQL too). */
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
  constructor(@Inject(DataDirectory) private readonly dataDirectory: DataDirectory) {}

  onModuleInit(): void {
    this.dataDirectory.prepare();
  }
}
