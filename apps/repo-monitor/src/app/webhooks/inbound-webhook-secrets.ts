import { Inject, Injectable } from '@nestjs/common';
import { ShortCache } from '../common/short-cache';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { acceptedSecrets, GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { SettingsChanges } from '../settings/settings-changes';

/** The inbound secrets a delivery may be signed with: the current one and, during rotation, the previous ones. */
export interface InboundWebhookSecrets {
  current?: string;
  previous: string[];
}

/** Where the effective inbound webhook secret comes from (environment, or the console's settings). */
export abstract class InboundWebhookSecretSource {
  abstract secrets(): Promise<InboundWebhookSecrets>;
}

/**
 * The effective secrets of the GitHub App settings (environment locks, else the console's value).
 * Kept in memory for MONITOR_SETTINGS_REFRESH at most and dropped at once when a console save is
 * announced (here or on another replica); a rotated-out secret's grace period is checked on every call.
 */
@Injectable()
export class SettingsWebhookSecretSource extends InboundWebhookSecretSource {
  private readonly cache: ShortCache<Awaited<ReturnType<GithubAppSharedSettings['inboundWebhookSecrets']>>>;

  constructor(@Inject(MONITOR_CONFIG) config: MonitorConfig, settings: GithubAppSharedSettings, changes: SettingsChanges) {
    super();
    this.cache = new ShortCache(() => settings.inboundWebhookSecrets(), config.settings.refreshMs);
    changes.subscribe('github_app', () => this.cache.clear());
  }

  async secrets(): Promise<InboundWebhookSecrets> {
    const [current, ...previous] = acceptedSecrets(await this.cache.get(), Date.now());
    return { current, previous };
  }
}
