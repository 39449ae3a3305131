import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { storedOutboundSecrets } from '../notification-channels/outbound-secrets';
import { SecretCipher } from '../settings/secret-cipher';
import { SEALED_GITHUB_SETTING_KEYS } from '../settings/encrypted-columns';
import {
  GithubAppSharedSettings,
  PUBLIC_BASE_URL_KEY,
  PREVIOUS_WEBHOOK_SECRET_KEY,
  PUBLIC_BASE_URL_VARIABLE,
  StoredPreviousWebhookSecret,
  WEBHOOK_SECRET_KEY,
  WEBHOOK_SECRET_VARIABLE,
  storedGithubField,
} from '../settings/github-app-shared-settings';
import { SettingsChanges } from '../settings/settings-changes';
import { SettingsStore } from '../settings/settings.store';
import { GithubAppField, GithubAppSettingsDto, UpdateGithubAppSettingsDto } from './dto/github-app-settings.dto';

/** The GitHub App settings the rest of the service uses, merged env > console > config file. */
export interface EffectiveGithubAppSettings {
  appId?: string;
  clientId?: string;
  /** PEM text, from the console or read from MONITOR_VCS_PRIVATE_KEY_PATH. */
  privateKey?: string;
  /** Set when the private key file cannot be read (the message names the variable, not the key). */
  privateKeyProblem?: string;
  /** Inbound webhook secrets to accept: the current one first, then the previous one during rotation. */
  webhookSecrets: string[];
  publicBaseUrl?: string;
}

/** What the manifest flow brings back from GitHub and stores. */
export interface CreatedGithubApp {
  appId: string;
  slug: string;
  clientId: string;
  clientSecret: string;
  privateKey: string;
  webhookSecret: string;
}

/**
 * The private key as stored: an uploaded file's text may carry a byte-order mark or CRLF line ends.
 * It must be an unencrypted RSA private key (what GitHub generates for an App), else 400.
 */
export function normalisedAppPrivateKey(text: string): string {
  const pem = `${text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim()}\n`;
  let type: string | undefined;
  try {
    type = createPrivateKey(pem).asymmetricKeyType;
  } catch {
    throw new MonitorError(
      'validation_failed',
      'private_key must be the PEM text of the private key GitHub generated for the App (-----BEGIN RSA PRIVATE KEY----- …), not encrypted',
      { field: 'private_key' },
    );
  }
  if (type !== 'rsa') {
    throw new MonitorError('validation_failed', `private_key must be an RSA key, as GitHub generates for Apps (this one is ${type ?? 'of an unknown type'})`, {
      field: 'private_key',
    });
  }
  return pem;
}

export const FIELD_VARIABLE: Record<GithubAppField, string> = {
  app_id: 'MONITOR_VCS_APP_ID',
  client_id: 'MONITOR_VCS_CLIENT_ID',
  private_key: 'MONITOR_VCS_PRIVATE_KEY_PATH',
  webhook_secret: WEBHOOK_SECRET_VARIABLE,
  public_base_url: PUBLIC_BASE_URL_VARIABLE,
};

const KEY = {
  appId: SEALED_GITHUB_SETTING_KEYS.appId,
  clientId: SEALED_GITHUB_SETTING_KEYS.clientId,
  privateKey: 'github.private_key',
  webhookSecret: WEBHOOK_SECRET_KEY,
  publicBaseUrl: PUBLIC_BASE_URL_KEY,
  appSlug: 'github.app_slug',
  clientSecret: 'github.client_secret',
} as const;

/**
 * GitHub App settings: fields set by environment are locked; the others are stored, every one of
 * them sealed under the master key, and read on every use, so console changes take effect without
 * a restart.
 */
@Injectable()
export class GithubAppSettingsService {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: SettingsStore,
    private readonly cipher: SecretCipher,
    private readonly audit: AuditLogService,
    private readonly shared: GithubAppSharedSettings,
    private readonly changes: SettingsChanges,
  ) {}

  lockedFields(): GithubAppField[] {
    return (Object.keys(FIELD_VARIABLE) as GithubAppField[]).filter((field) => this.config.environmentVariables.has(FIELD_VARIABLE[field]));
  }

  async current(): Promise<EffectiveGithubAppSettings> {
    const locked = new Set(this.lockedFields());
    const github = this.config.github;
    const pick = async (field: GithubAppField, key: string, fromConfig: string | undefined): Promise<string | undefined> =>
      locked.has(field) ? fromConfig : ((await this.storedField(key)) ?? fromConfig);

    let privateKey: string | undefined;
    let privateKeyProblem: string | undefined;
    const storedKey = locked.has('private_key') ? undefined : await this.store.getSecret(KEY.privateKey);
    if (storedKey) privateKey = storedKey;
    else if (github.privateKeyPath) {
      try {
        privateKey = await readFile(github.privateKeyPath, 'utf8');
      } catch (error) {
        privateKeyProblem = `MONITOR_VCS_PRIVATE_KEY_PATH cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
      }
    }

    return {
      appId: await pick('app_id', KEY.appId, github.appId),
      clientId: await pick('client_id', KEY.clientId, github.clientId),
      privateKey,
      privateKeyProblem,
      webhookSecrets: await this.shared.webhookSecrets(),
      publicBaseUrl: await pick('public_base_url', KEY.publicBaseUrl, this.config.http.publicBaseUrl),
    };
  }

  private storedField(key: string): Promise<string | undefined> {
    return storedGithubField(this.store, key);
  }

  async describe(): Promise<GithubAppSettingsDto> {
    const effective = await this.current();
    const locked = this.lockedFields();
    const privateKeySet = Boolean(effective.privateKey) || (!locked.includes('private_key') && (await this.store.hasSecret(KEY.privateKey)));
    const webhookSecretSet =
      effective.webhookSecrets.length > 0 || (!locked.includes('webhook_secret') && (await this.store.hasSecret(KEY.webhookSecret)));
    return {
      app_id: effective.appId ?? null,
      client_id: effective.clientId ?? null,
      private_key_set: privateKeySet,
      webhook_secret_set: webhookSecretSet,
      app_slug: (await this.storedField(KEY.appSlug)) ?? null,
      client_secret_set: await this.store.hasSecret(KEY.clientSecret),
      public_base_url: effective.publicBaseUrl ?? null,
      configured: Boolean(effective.appId && effective.clientId && effective.privateKey),
      locked_fields: locked,
    };
  }

  async update(changes: UpdateGithubAppSettingsDto, actor: string, clientIp: string): Promise<GithubAppSettingsDto> {
    const changed = (Object.keys(FIELD_VARIABLE) as GithubAppField[]).filter((field) => changes[field] !== undefined);
    const locked = new Set(this.lockedFields());
    for (const field of changed) {
      if (locked.has(field)) {
        throw new MonitorError('github_field_locked', `${field} is set by ${FIELD_VARIABLE[field]} and cannot be changed in the console`, { field });
      }
    }
    const privateKey = typeof changes.private_key === 'string' ? normalisedAppPrivateKey(changes.private_key) : changes.private_key;
    if (typeof changes.webhook_secret === 'string') {
      const outbound = await storedOutboundSecrets(this.dataSource.manager, this.cipher);
      if (outbound.includes(changes.webhook_secret) || changes.webhook_secret === this.config.notifications.webhookSecret) {
        throw new MonitorError('validation_failed', 'webhook_secret must differ from every outbound webhook secret', { field: 'webhook_secret' });
      }
    }
    await this.dataSource.transaction(async (manager) => {
      const sealed = async (key: string, value: string | null | undefined) => {
        if (value === undefined) return;
        await this.store.setSecret(key, value === null ? null : key === KEY.publicBaseUrl ? value.trim().replace(/\/+$/, '') : value.trim(), manager);
      };
      await sealed(KEY.appId, changes.app_id);
      await sealed(KEY.clientId, changes.client_id);
      await sealed(KEY.publicBaseUrl, changes.public_base_url);
      if (privateKey !== undefined) await this.store.setSecret(KEY.privateKey, privateKey, manager);
      if (changes.webhook_secret !== undefined) await this.rotateWebhookSecret(changes.webhook_secret, manager);
      await this.audit.record({ actor, action: 'github_app.updated', details: { fields: changed }, clientIp }, manager);
    });
    await this.changes.announce('github_app');
    return this.describe();
  }

  /**
   * Stores the new inbound secret and keeps the one it replaces (console or config file) accepted for
   * MONITOR_VCS_WEBHOOK_SECRET_GRACE: GitHub's App settings and this service are never changed at the
   * same instant, and GitHub does not retry a delivery refused meanwhile.
   */
  private async rotateWebhookSecret(next: string | null, manager: EntityManager): Promise<void> {
    const replaced = (await this.store.getSecret(KEY.webhookSecret, manager)) ?? this.config.github.webhookSecret;
    await this.store.setSecret(KEY.webhookSecret, next, manager);
    if (replaced && replaced !== next && this.config.github.webhookSecretGraceMs > 0) {
      const expiry: Omit<StoredPreviousWebhookSecret, 'envelope'> = { expires_at: Date.now() + this.config.github.webhookSecretGraceMs };
      await this.store.setSecret(PREVIOUS_WEBHOOK_SECRET_KEY, replaced, manager, expiry);
    }
  }

  /**
   * Stores an App created through the manifest flow: its id, slug, client id and secret, private key
   * and webhook secret, all sealed, in one transaction with the audit entry. The caller has checked
   * that none of the fields is locked.
   */
  async storeCreatedApp(app: CreatedGithubApp, actor: string, clientIp: string): Promise<void> {
    const privateKey = normalisedAppPrivateKey(app.privateKey);
    await this.dataSource.transaction(async (manager) => {
      await this.store.setSecret(KEY.appId, app.appId, manager);
      await this.store.setSecret(KEY.clientId, app.clientId, manager);
      await this.store.setSecret(KEY.privateKey, privateKey, manager);
      await this.store.setSecret(KEY.webhookSecret, app.webhookSecret, manager);
      await this.store.setSecret(KEY.clientSecret, app.clientSecret, manager);
      await this.store.setSecret(KEY.appSlug, app.slug, manager);
      await this.audit.record(
        { actor, action: 'github_app.created_from_manifest', details: { app_id: app.appId, slug: app.slug, client_id: app.clientId }, clientIp },
        manager,
      );
    });
    await this.changes.announce('github_app');
  }
}
