import { DynamicModule, Global, Module } from '@nestjs/common';
import { MONITOR_CONFIG, MonitorConfig } from './monitor-config';

/** Makes the validated configuration injectable everywhere as `@Inject(MONITOR_CONFIG)`. */
@Global()
@Module({})
export class MonitorConfigModule {
  static register(config: MonitorConfig): DynamicModule {
    return {
      module: MonitorConfigModule,
      providers: [{ provide: MONITOR_CONFIG, useValue: config }],
      exports: [MONITOR_CONFIG],
    };
  }
}
