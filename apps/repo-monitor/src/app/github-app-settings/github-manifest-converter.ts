import { Inject, Injectable, Optional } from '@nestjs/common';
import { Octokit } from '@octokit/core';
import { fetchThrough } from '@shared/outbound-http';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { OUTBOUND_DISPATCHER } from '../outbound/outbound-dispatcher';
import { CreatedGithubApp } from './github-app-settings.service';

/** Why a code could not be exchanged: GitHub refused it (expired, used, unknown) or could not be reached. */
export class ManifestConversionError extends Error {
  constructor(
    readonly reason: 'code_refused' | 'github_unreachable' | 'unexpected_answer',
    message: string,
  ) {
    super(message);
  }
}

/** Exchanges the code GitHub's manifest flow hands back for the new App's credentials. */
export abstract class GithubManifestConverter {
  abstract convert(code: string): Promise<CreatedGithubApp>;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined;
}

/** `POST {api}/app-manifests/{code}/conversions` through octokit, over the outbound dispatcher (proxy aware). */
@Injectable()
export class OctokitManifestConverter extends GithubManifestConverter {
  private readonly octokit: Octokit;

  constructor(@Inject(MONITOR_CONFIG) config: MonitorConfig, @Optional() @Inject(OUTBOUND_DISPATCHER) dispatcher?: Dispatcher) {
    super();
    this.octokit = new Octokit({ baseUrl: config.github.apiUrl, request: { fetch: fetchThrough(dispatcher), timeout: 20_000 } });
  }

  async convert(code: string): Promise<CreatedGithubApp> {
    let data: Record<string, unknown>;
    try {
      const response = await this.octokit.request('POST /app-manifests/{code}/conversions', { code });
      data = response.data as unknown as Record<string, unknown>;
    } catch (error) {
      const status = typeof error === 'object' && error !== null ? (error as { status?: number }).status : undefined;
      if (status && status >= 400 && status < 500) {
        throw new ManifestConversionError('code_refused', `GitHub refused the code (HTTP ${status}); it is valid for one hour and only once`);
      }
      throw new ManifestConversionError('github_unreachable', `GitHub could not be reached to exchange the code${status ? ` (HTTP ${status})` : ''}`);
    }
    const app = {
      appId: text(data['id']),
      slug: text(data['slug']),
      clientId: text(data['client_id']),
      clientSecret: text(data['client_secret']),
      privateKey: text(data['pem']),
      webhookSecret: text(data['webhook_secret']),
    };
    const missing = Object.entries(app)
      .filter(([, value]) => value === undefined)
      .map(([key]) => key);
    if (missing.length > 0 || !/^\d{1,12}$/.test(app.appId ?? '')) {
      throw new ManifestConversionError('unexpected_answer', `GitHub's answer lacks ${missing.join(', ') || 'a numeric app id'}`);
    }
    return app as CreatedGithubApp;
  }
}
