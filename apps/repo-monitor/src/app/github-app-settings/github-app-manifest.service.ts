import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { constantTimeEqual } from '@shared/crypto';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SecretCipher } from '../settings/secret-cipher';
import { SettingsStore } from '../settings/settings.store';
import { GithubAppField, GithubAppManifestDto, ManifestFlowStartDto, StartManifestFlowDto } from './dto/github-app-settings.dto';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { FIELD_VARIABLE, GithubAppSettingsService } from './github-app-settings.service';
import { GithubManifestConverter, ManifestConversionError } from './github-manifest-converter';

/** How long the state of a started manifest flow is accepted (creating the App on GitHub takes a minute). */
export const MANIFEST_STATE_TTL_MS = 15 * 60_000;
const STATE_KEY = 'github.manifest_state';

/** The fields the manifest flow writes; the environment must set none of them. */
const MANIFEST_FIELDS: GithubAppField[] = ['app_id', 'client_id', 'private_key', 'webhook_secret'];

/** The pending flow: only the state's hash, the session it belongs to and when it expires. */
interface StoredManifestState {
  state_sha256: string;
  session_id: string;
  expires_at: string;
}

/** Why a return from GitHub was not stored; the console shows it (`?manifest=error&reason=`). */
export type ManifestFailure =
  | 'invalid_request'
  | 'github_error'
  | 'session_required'
  | 'invalid_state'
  | 'state_expired'
  | 'fields_locked'
  | 'encryption_unavailable'
  | 'code_refused'
  | 'github_unreachable'
  | 'unexpected_answer'
  | 'invalid_key';

export class ManifestFlowFailure extends Error {
  constructor(
    readonly reason: ManifestFailure,
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * GitHub's App manifest flow: the console POSTs a manifest to GitHub, the person creates the App
 * there, GitHub sends the browser back with a code, and the code is exchanged for the App's
 * credentials, stored like console-set fields. The state is single-use, expires, and belongs to
 * the admin session that started the flow.
 */
@Injectable()
export class GithubAppManifestService {
  private readonly logger = new Logger(GithubAppManifestService.name);

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: GithubAppSettingsService,
    private readonly publicAddress: GithubAppSharedSettings,
    private readonly store: SettingsStore,
    private readonly cipher: SecretCipher,
    private readonly converter: GithubManifestConverter,
  ) {}

  /** The manifest for this service and where to post it, with a fresh state for `sessionId`. */
  async start(body: StartManifestFlowDto, sessionId: string, now = new Date()): Promise<ManifestFlowStartDto> {
    const locked = this.lockedManifestFields();
    if (locked.length > 0) {
      throw new MonitorError(
        'github_field_locked',
        `the environment sets ${locked.map((field) => FIELD_VARIABLE[field]).join(', ')}; an App created here could not be stored. Remove them, or create the App by hand`,
        { fields: locked },
      );
    }
    if (!this.cipher.available) {
      throw new MonitorError('encryption_unavailable', 'MONITOR_ENCRYPTION_KEY is not set, so the new App\u2019s private key and secrets cannot be stored');
    }
    const base = await this.publicAddress.publicBaseUrl();
    if (!base) {
      throw new MonitorError('conflict', 'set the public base URL first (MONITOR_PUBLIC_BASE_URL or the console): GitHub sends webhooks and the browser back to it', {
        field: 'public_base_url',
      });
    }
    const state = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + MANIFEST_STATE_TTL_MS);
    const stored: StoredManifestState = { state_sha256: sha256(state), session_id: sessionId, expires_at: expiresAt.toISOString() };
    // One flow at a time: a new start replaces an unfinished one.
    await this.store.set(STATE_KEY, stored);
    const owner = body.organization ? `/organizations/${encodeURIComponent(body.organization)}` : '';
    return {
      post_url: `${this.config.github.webUrl}${owner}/settings/apps/new?state=${encodeURIComponent(state)}`,
      manifest: this.manifest(base, body),
      state,
      expires_at: expiresAt.toISOString(),
    };
  }

  manifest(base: string, body: StartManifestFlowDto): GithubAppManifestDto {
    const host = new URL(base).host;
    return {
      name: body.name ?? `repo-monitor ${host}`.slice(0, 34),
      url: base,
      description: `Notifications about issues, pull requests, workflow runs, releases and security alerts from repo-monitor at ${host}.`,
      hook_attributes: { url: `${base}/webhooks/github`, active: true },
      redirect_url: `${base}/api/v1/github/app/manifest/callback`,
      callback_urls: [`${base}/github-app`],
      public: false,
      default_permissions: {
        metadata: 'read',
        issues: 'read',
        pull_requests: body.allow_pr_comments ? 'write' : 'read',
        contents: 'read',
        actions: 'read',
        vulnerability_alerts: 'read',
        security_events: 'read',
        secret_scanning_alerts: 'read',
      },
      default_events: [
        'issues',
        'pull_request',
        'workflow_run',
        'release',
        'star',
        'watch',
        'repository',
        'dependabot_alert',
        'code_scanning_alert',
        'secret_scanning_alert',
      ],
    };
  }

  /**
   * The return from GitHub: checks the state against the session (and uses it up), exchanges the
   * code and stores the App. Answers the App slug; throws ManifestFlowFailure with the reason.
   */
  async complete(code: string, state: string, sessionId: string, actor: string, clientIp: string, now = new Date()): Promise<string> {
    await this.consumeState(state, sessionId, now);
    const locked = this.lockedManifestFields();
    if (locked.length > 0) throw new ManifestFlowFailure('fields_locked', `the environment sets ${locked.join(', ')}`);
    if (!this.cipher.available) throw new ManifestFlowFailure('encryption_unavailable', 'MONITOR_ENCRYPTION_KEY is not set');
    let app;
    try {
      app = await this.converter.convert(code);
    } catch (error) {
      if (error instanceof ManifestConversionError) throw new ManifestFlowFailure(error.reason, error.message);
      throw error;
    }
    try {
      await this.settings.storeCreatedApp(app, actor, clientIp);
    } catch (error) {
      if (error instanceof MonitorError && error.errorCode === 'validation_failed') throw new ManifestFlowFailure('invalid_key', 'GitHub answered a private key that is not an RSA key');
      throw error;
    }
    this.logger.log(`GitHub App ${app.slug} (id ${app.appId}) created through the manifest flow and stored`);
    return app.slug;
  }

  /** Matches the state to the pending flow of this session; a match is used up, a mismatch leaves the flow pending. */
  private async consumeState(state: string, sessionId: string, now: Date): Promise<void> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const stored = await this.store.get<StoredManifestState>(STATE_KEY, manager);
      if (!stored || !constantTimeEqual(sha256(state), stored.state_sha256) || stored.session_id !== sessionId) return 'invalid_state' as const;
      await this.store.delete(STATE_KEY, manager);
      return Date.parse(stored.expires_at) <= now.getTime() ? ('state_expired' as const) : ('ok' as const);
    });
    if (outcome === 'invalid_state') {
      throw new ManifestFlowFailure('invalid_state', 'the state does not belong to a flow this session started (start again from the console)');
    }
    if (outcome === 'state_expired') throw new ManifestFlowFailure('state_expired', 'the flow was started too long ago; start again');
  }

  private lockedManifestFields(): GithubAppField[] {
    const locked = new Set(this.settings.lockedFields());
    return MANIFEST_FIELDS.filter((field) => locked.has(field));
  }
}
