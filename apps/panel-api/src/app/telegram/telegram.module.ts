import { Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { overridableProvider } from '../common/provider-overrides';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { LazyTelegramGateway } from './lazy-telegram-gateway';
import { SimulatorTelegramGateway } from './simulator-telegram-gateway';
import { TELEGRAM_GATEWAY, TelegramGateway } from './telegram-gateway';

/**
 * Provides TELEGRAM_GATEWAY: the GramJS adapter with the API id/hash of the settings, loaded on the
 * first call (see LazyTelegramGateway), unless createPanelApp was given an override (the simulator
 * in e2e tests) or, test-only, APP_TELEGRAM_GATEWAY=simulator names the simulator process.
 */
@Module({
  imports: [SettingsModule],
  providers: [
    overridableProvider(
      TELEGRAM_GATEWAY,
      (settings: SettingsService, config: PanelConfig) =>
        // Test-only: the simulator process of the multi-process proof (APP_TELEGRAM_GATEWAY=simulator).
        config.telegram.gateway === 'simulator' && config.telegram.simulatorUrl
          ? new SimulatorTelegramGateway(config.telegram.simulatorUrl)
          : new LazyTelegramGateway(async () => {
              const { GramJsTelegramGateway } = await import('./gramjs-telegram-gateway');
              return new GramJsTelegramGateway({
                credentials: () => {
                  const api = settings.getTelegramApi();
                  return api.api_id && api.api_hash ? { apiId: api.api_id, apiHash: api.api_hash } : undefined;
                },
              });
            }),
      [SettingsService, PANEL_CONFIG],
    ),
  ],
  exports: [TELEGRAM_GATEWAY],
})
export class TelegramModule implements OnModuleDestroy {
  constructor(@Inject(TELEGRAM_GATEWAY) private readonly gateway: TelegramGateway) {}

  async onModuleDestroy(): Promise<void> {
    if (this.gateway instanceof LazyTelegramGateway || this.gateway instanceof SimulatorTelegramGateway) await this.gateway.close();
  }
}
