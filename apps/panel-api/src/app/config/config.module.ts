import { DynamicModule, Global, Module } from '@nestjs/common';
import { PANEL_CONFIG, PanelConfig } from './panel-config';

/** Makes the validated configuration injectable everywhere as `@Inject(PANEL_CONFIG)`. */
@Global()
@Module({})
export class PanelConfigModule {
  static register(config: PanelConfig): DynamicModule {
    return {
      module: PanelConfigModule,
      providers: [{ provide: PANEL_CONFIG, useValue: config }],
      exports: [PANEL_CONFIG],
    };
  }
}
