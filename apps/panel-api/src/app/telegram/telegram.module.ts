import { Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { overridableProvider } from '../common/provider-overrides';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { LazyTelegramGateway } from './lazy-telegram-gateway';
import { TELEGRAM_GATEWAY, TelegramGateway } from './telegram-gateway';

/**
 * Provides TELEGRAM_GATEWAY: the GramJS adapter with the API id/hash of the settings, loaded on the
 * first call (see LazyTelegramGateway), unless createPanelApp was given an override (the simulator
 * in e2e tests).
 */
@Module({
  imports: [SettingsModule],
  providers: [
    overridableProvider(
      TELEGRAM_GATEWAY,
      (settings: SettingsService) =>
        new LazyTelegramGateway(async () => {
          const { GramJsTelegramGateway } = await import('./gramjs-telegram-gateway');
          return new GramJsTelegramGateway({
            credentials: () => {
              const api = settings.getTelegramApi();
              return api.api_id && api.api_hash ? { apiId: api.api_id, apiHash: api.api_hash } : undefined;
            },
          });
        }),
      [SettingsService],
    ),
  ],
  exports: [TELEGRAM_GATEWAY],
})
export class TelegramModule implements OnModuleDestroy {
  constructor(@Inject(TELEGRAM_GATEWAY) private readonly gateway: TelegramGateway) {}

  async onModuleDestroy(): Promise<void> {
    if (this.gateway instanceof LazyTelegramGateway) await this.gateway.close();
  }
}
