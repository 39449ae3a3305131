import { Injectable } from '@nestjs/common';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { ShortCache } from '../common/short-cache';

/** The inbound secrets a delivery may be signed with: the current one and, during rotation, the previous. */
export interface InboundWebhookSecrets {
  current?: string;
  previous?: string;
}

/** Where the effective inbound webhook secret comes from (environment, or the console's settings). */
export abstract class InboundWebhookSecretSource {
  abstract secrets(): Promise<InboundWebhookSecrets>;
}

/** The effective secrets of the GitHub App settings (environment locks, else the console's value). */
@Injectable()
export class SettingsWebhookSecretSource extends InboundWebhookSecretSource {
  private readonly cache: ShortCache<InboundWebhookSecrets>;

  constructor(settings: GithubAppSettingsService) {
    super();
    this.cache = new ShortCache(async () => {
      const [current, previous] = (await settings.current()).webhookSecrets;
      return { current, previous };
    });
  }

  secrets(): Promise<InboundWebhookSecrets> {
    return this.cache.get();
  }
}
