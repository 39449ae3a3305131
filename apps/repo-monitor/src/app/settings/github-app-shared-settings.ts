import { Inject, Injectable } from '@nestjs/common';
import { parseHttpUrl } from '../common/http-url';
import { RequestTarget, requestOrigin } from '../common/request-origin';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SEALED_GITHUB_SETTING_KEYS } from './encrypted-columns';
import { SettingsStore } from './settings.store';

/** Where the public base URL and the inbound webhook secret are stored, and the variables that lock them. */
export const PUBLIC_BASE_URL_KEY = SEALED_GITHUB_SETTING_KEYS.publicBaseUrl;
export const PUBLIC_BASE_URL_VARIABLE = 'MONITOR_PUBLIC_BASE_URL';
export const WEBHOOK_SECRET_KEY = 'github.webhook_secret';
export const WEBHOOK_SECRET_VARIABLE = 'MONITOR_VCS_WEBHOOK_SECRET';
/** The secret a console rotation replaced, sealed like the current one, with the end of its grace period. */
export const PREVIOUS_WEBHOOK_SECRET_KEY = 'github.webhook_secret_previous';

/** The previous console webhook secret as stored: its envelope and when it stops being accepted (ms since epoch). */
export interface StoredPreviousWebhookSecret {
  envelope: string;
  expires_at: number;
}

/** An inbound webhook secret to accept, until `expiresAt` (ms since epoch) when it is a rotated-out one. */
export interface AcceptedWebhookSecret {
  secret: string;
  expiresAt?: number;
}

/** The inbound secrets: the current one and the previous ones still accepted. */
export interface InboundWebhookSecretSet {
  current?: string;
  previous: AcceptedWebhookSecret[];
}

/**
 * A console-set GitHub App field: sealed since the fields became secrets; a value stored in clear by
 * an earlier version is still read (startup seals it once a master key is configured).
 */
export async function storedGithubField(store: SettingsStore, key: string): Promise<string | undefined> {
  const stored = await store.get<unknown>(key);
  if (typeof stored === 'string') return stored;
  return store.getSecret(key);
}

/**
 * The two GitHub App settings that features below the GitHub App settings read: the public base URL
 * (sign-in cookies, the agents' issuer) and the inbound webhook secrets (kept apart from every
 * outbound secret). Both are read on every use, so console changes take effect without a restart.
 */
@Injectable()
export class GithubAppSharedSettings {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly store: SettingsStore,
  ) {}

  /**
   * The public base URL in effect: MONITOR_PUBLIC_BASE_URL, else the console value, else the config
   * file. A stored value that does not parse as an http(s) URL (an IPv6 zone id accepted by an
   * earlier version) counts as none, so every use of it (the manifest flow, the issuer, cookies)
   * sees "not set" instead of failing with a 500.
   */
  async publicBaseUrl(): Promise<string | undefined> {
    if (this.config.environmentVariables.has(PUBLIC_BASE_URL_VARIABLE)) return this.config.http.publicBaseUrl;
    const value = (await storedGithubField(this.store, PUBLIC_BASE_URL_KEY)) ?? this.config.http.publicBaseUrl;
    return value !== undefined && parseHttpUrl(value) ? value : undefined;
  }

  /**
   * The origin this service answers as: the public base URL when one is in effect, else the origin
   * the request was sent to (Host, or X-Forwarded-Host/-Proto from a trusted proxy only). The
   * OAuth issuer, discovery documents and the MCP challenge all use it.
   */
  async publicOrigin(request: RequestTarget): Promise<string> {
    return (await this.publicBaseUrl()) ?? requestOrigin(request);
  }

  /** Whether requests arrive over https: the effective public base URL says so. */
  async publicBaseUrlIsHttps(): Promise<boolean> {
    return (await this.publicBaseUrl())?.startsWith('https://') ?? false;
  }

  /**
   * The inbound secrets with the end of each grace period: the current one (environment lock, else
   * console, else config file), MONITOR_VCS_WEBHOOK_PREVIOUS_SECRET, and the secret the last console
   * rotation replaced until its grace period (MONITOR_VCS_WEBHOOK_SECRET_GRACE) ends.
   */
  async inboundWebhookSecrets(): Promise<InboundWebhookSecretSet> {
    const github = this.config.github;
    const locked = this.config.environmentVariables.has(WEBHOOK_SECRET_VARIABLE);
    const current = locked ? github.webhookSecret : ((await this.store.getSecret(WEBHOOK_SECRET_KEY)) ?? github.webhookSecret);
    const previous: AcceptedWebhookSecret[] = [];
    if (github.webhookPreviousSecret) previous.push({ secret: github.webhookPreviousSecret });
    if (!locked) {
      const rotated = await this.previousConsoleSecret();
      if (rotated) previous.push(rotated);
    }
    return { current, previous: previous.filter((entry) => entry.secret !== current) };
  }

  /** Inbound webhook secrets to accept now: the current one first, then the previous ones still in their grace period. */
  async webhookSecrets(now = Date.now()): Promise<string[]> {
    return acceptedSecrets(await this.inboundWebhookSecrets(), now);
  }

  private async previousConsoleSecret(): Promise<AcceptedWebhookSecret | undefined> {
    const stored = await this.store.get<Partial<StoredPreviousWebhookSecret>>(PREVIOUS_WEBHOOK_SECRET_KEY);
    if (!stored || typeof stored.envelope !== 'string' || typeof stored.expires_at !== 'number') return undefined;
    const secret = await this.store.getSecret(PREVIOUS_WEBHOOK_SECRET_KEY);
    return secret ? { secret, expiresAt: stored.expires_at } : undefined;
  }
}

/** The secrets of a set that are accepted at `now`, current first, without repeats. */
export function acceptedSecrets(set: InboundWebhookSecretSet, now: number): string[] {
  const previous = set.previous.filter((entry) => entry.expiresAt === undefined || entry.expiresAt > now).map((entry) => entry.secret);
  return [...new Set([set.current, ...previous].filter((secret): secret is string => Boolean(secret)))];
}
