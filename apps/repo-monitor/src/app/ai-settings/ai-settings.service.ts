import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { parseDuration } from '@shared/config';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { AiFeatureSwitches, MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { ShortCache } from '../common/short-cache';
import { SettingsChanges } from '../settings/settings-changes';
import { SettingsStore } from '../settings/settings.store';
import { AI_FIELDS, AiField, AiSettingsDto, UpdateAiSettingsDto } from './dto/ai-settings.dto';

/** The AI settings in force right now; read them per use so console changes apply without restart (kept for MONITOR_SETTINGS_REFRESH at most, dropped when a change is announced). */
export interface EffectiveAiSettings {
  enabled: boolean;
  apiKey?: string;
  baseUrl: string;
  model: string;
  timeoutMs: number;
  maxTokens: number;
  retries: number;
  features: AiFeatureSwitches;
}

/** Injection token for the provider of effective AI settings (the AI features depend only on this). */
export const EFFECTIVE_AI_SETTINGS = Symbol('EFFECTIVE_AI_SETTINGS');

export interface EffectiveAiSettingsProvider {
  current(): Promise<EffectiveAiSettings>;
}

const FIELD_VARIABLE: Record<AiField, string> = {
  enabled: 'MONITOR_AI_ENABLED',
  api_key: 'MONITOR_AI_API_KEY',
  base_url: 'MONITOR_AI_BASE_URL',
  model: 'MONITOR_AI_MODEL',
  timeout: 'MONITOR_AI_TIMEOUT',
  max_tokens: 'MONITOR_AI_MAX_TOKENS',
  retries: 'MONITOR_AI_RETRIES',
  digest_enabled: 'MONITOR_AI_DIGEST_ENABLED',
  triage_enabled: 'MONITOR_AI_TRIAGE_ENABLED',
  release_summary_enabled: 'MONITOR_AI_RELEASE_SUMMARY_ENABLED',
  code_review_enabled: 'MONITOR_AI_CODE_REVIEW_ENABLED',
  failure_analysis_enabled: 'MONITOR_AI_FAILURE_ANALYSIS_ENABLED',
};

const STORED_KEY = 'ai.config';
const API_KEY_KEY = 'ai.api_key';

/** What the console stored for the non-secret fields (only the fields it has written). */
interface StoredAiSettings {
  enabled?: boolean;
  base_url?: string;
  model?: string;
  timeout_ms?: number;
  max_tokens?: number;
  retries?: number;
  digest_enabled?: boolean;
  triage_enabled?: boolean;
  release_summary_enabled?: boolean;
  code_review_enabled?: boolean;
  failure_analysis_enabled?: boolean;
}

/** Whether two base URLs name the same endpoint (case of scheme and host, default port and trailing slashes aside). */
export function sameAiEndpoint(a: string, b: string): boolean {
  const normal = (url: string): string => {
    try {
      return new URL(url.trim()).href.replace(/\/+$/, '');
    } catch {
      return url.trim().replace(/\/+$/, '');
    }
  };
  return normal(a) === normal(b);
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * AI settings: environment (locked) > console (database) > config file > defaults. The API key is
 * sealed with the master key and only reported as api_key_set.
 */
@Injectable()
export class AiSettingsService implements EffectiveAiSettingsProvider {
  // The outbox worker asks before every claim and the PR review before every review: without this
  // each processed delivery cost two settings reads.
  private readonly effective: ShortCache<EffectiveAiSettings>;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: SettingsStore,
    private readonly audit: AuditLogService,
    private readonly changes: SettingsChanges,
  ) {
    this.effective = new ShortCache(() => this.load(), config.settings.refreshMs);
    changes.subscribe('ai', () => this.effective.clear());
  }

  lockedFields(): AiField[] {
    return AI_FIELDS.filter((field) => this.config.environmentVariables.has(FIELD_VARIABLE[field]));
  }

  current(): Promise<EffectiveAiSettings> {
    return this.effective.get();
  }

  private async load(): Promise<EffectiveAiSettings> {
    const stored = (await this.store.get<StoredAiSettings>(STORED_KEY)) ?? {};
    const apiKey = this.isLocked('api_key') ? this.config.ai.apiKey : ((await this.store.getSecret(API_KEY_KEY)) ?? this.config.ai.apiKey);
    return this.merge(stored, apiKey);
  }

  async describe(): Promise<AiSettingsDto> {
    const stored = (await this.store.get<StoredAiSettings>(STORED_KEY)) ?? {};
    const keyStored = !this.isLocked('api_key') && (await this.store.hasSecret(API_KEY_KEY));
    const effective = this.merge(stored, this.isLocked('api_key') ? this.config.ai.apiKey : undefined);
    return {
      enabled: effective.enabled,
      api_key_set: Boolean(effective.apiKey) || keyStored || Boolean(this.config.ai.apiKey),
      base_url: effective.baseUrl,
      model: effective.model,
      timeout: formatDuration(effective.timeoutMs),
      max_tokens: effective.maxTokens,
      retries: effective.retries,
      digest_enabled: effective.features.digest,
      triage_enabled: effective.features.triage,
      release_summary_enabled: effective.features.releaseSummary,
      code_review_enabled: effective.features.codeReview,
      failure_analysis_enabled: effective.features.failureAnalysis,
      locked_fields: this.lockedFields(),
    };
  }

  async update(changes: UpdateAiSettingsDto, actor: string, clientIp: string): Promise<AiSettingsDto> {
    const changed = AI_FIELDS.filter((field) => changes[field] !== undefined);
    for (const field of changed) {
      if (this.isLocked(field)) {
        throw new MonitorError('ai_field_locked', `${field} is set by ${FIELD_VARIABLE[field]} and cannot be changed in the console`, { field });
      }
    }
    await this.dataSource.transaction(async (manager) => {
      const stored = (await this.store.get<StoredAiSettings>(STORED_KEY, manager)) ?? {};
      if (changes.base_url !== undefined && changes.api_key === undefined) {
        const keyStored = !this.isLocked('api_key') && (await this.store.hasSecret(API_KEY_KEY, manager));
        this.refuseKeyFollowingNewAddress(this.merge(stored, undefined).baseUrl, changes.base_url, keyStored);
      }
      const next: StoredAiSettings = { ...stored };
      if (changes.enabled !== undefined) next.enabled = changes.enabled;
      if (changes.base_url !== undefined) next.base_url = changes.base_url.replace(/\/+$/, '');
      if (changes.model !== undefined) next.model = changes.model.trim();
      if (changes.timeout !== undefined) next.timeout_ms = parseDuration(changes.timeout);
      if (changes.max_tokens !== undefined) next.max_tokens = changes.max_tokens;
      if (changes.retries !== undefined) next.retries = changes.retries;
      if (changes.digest_enabled !== undefined) next.digest_enabled = changes.digest_enabled;
      if (changes.triage_enabled !== undefined) next.triage_enabled = changes.triage_enabled;
      if (changes.release_summary_enabled !== undefined) next.release_summary_enabled = changes.release_summary_enabled;
      if (changes.code_review_enabled !== undefined) next.code_review_enabled = changes.code_review_enabled;
      if (changes.failure_analysis_enabled !== undefined) next.failure_analysis_enabled = changes.failure_analysis_enabled;

      if (changes.api_key !== undefined) await this.store.setSecret(API_KEY_KEY, changes.api_key, manager);
      const apiKey = this.isLocked('api_key') ? this.config.ai.apiKey : ((await this.store.getSecret(API_KEY_KEY, manager)) ?? this.config.ai.apiKey);
      if (this.merge(next, apiKey).enabled && !apiKey) {
        throw new MonitorError('validation_failed', 'api_key is required when AI is enabled (any placeholder for a local gateway)', { field: 'api_key' });
      }
      await this.store.set(STORED_KEY, next, manager);
      await this.audit.record({ actor, action: 'ai_settings.updated', details: { fields: changed }, clientIp }, manager);
    });
    // After the commit: a load that started earlier may have read the old rows, and is dropped with it (here and on every replica).
    await this.changes.announce('ai');
    return this.describe();
  }

  /**
   * A key belongs to the address it was given for: moving the base URL while keeping the key would
   * send it to the new host. A stored key must be given again (or cleared with api_key: null); a key
   * set by MONITOR_AI_API_KEY goes with MONITOR_AI_BASE_URL, so the console cannot move it.
   */
  private refuseKeyFollowingNewAddress(currentBaseUrl: string, nextBaseUrl: string, keyStored: boolean): void {
    if (sameAiEndpoint(currentBaseUrl, nextBaseUrl)) return;
    if (this.isLocked('api_key')) {
      throw new MonitorError(
        'validation_failed',
        'base_url cannot be changed in the console while MONITOR_AI_API_KEY sets the key (it would go to the new address); set MONITOR_AI_BASE_URL instead',
        { field: 'base_url' },
      );
    }
    if (keyStored) {
      throw new MonitorError(
        'validation_failed',
        'api_key is required again when base_url changes: the stored key is never sent to a new address (give the key, or api_key: null to remove it)',
        { field: 'api_key' },
      );
    }
  }

  private isLocked(field: AiField): boolean {
    return this.config.environmentVariables.has(FIELD_VARIABLE[field]);
  }

  private merge(stored: StoredAiSettings, apiKey: string | undefined): EffectiveAiSettings {
    const ai = this.config.ai;
    const pick = <T>(field: AiField, fromStore: T | undefined, fromConfig: T): T =>
      this.isLocked(field) || fromStore === undefined ? fromConfig : fromStore;
    return {
      enabled: pick('enabled', stored.enabled, ai.enabled),
      apiKey,
      baseUrl: pick('base_url', stored.base_url, ai.baseUrl),
      model: pick('model', stored.model, ai.model),
      timeoutMs: pick('timeout', stored.timeout_ms, ai.timeoutMs),
      maxTokens: pick('max_tokens', stored.max_tokens, ai.maxTokens),
      retries: pick('retries', stored.retries, ai.retries),
      features: {
        digest: pick('digest_enabled', stored.digest_enabled, ai.features.digest),
        triage: pick('triage_enabled', stored.triage_enabled, ai.features.triage),
        releaseSummary: pick('release_summary_enabled', stored.release_summary_enabled, ai.features.releaseSummary),
        codeReview: pick('code_review_enabled', stored.code_review_enabled, ai.features.codeReview),
        failureAnalysis: pick('failure_analysis_enabled', stored.failure_analysis_enabled, ai.features.failureAnalysis),
      },
    };
  }
}
