import type { Schemas } from '../../api/client';
import { FieldLock, fieldLocks } from '../../components/locked-field';

export type GithubAppSettings = Schemas['GithubAppSettingsDto'];
export type GithubAppField = 'app_id' | 'client_id' | 'private_key' | 'webhook_secret' | 'public_base_url';

/** The environment variable that sets (and so locks) each field, as repo-monitor reads them. */
export const GITHUB_APP_VARIABLES: Record<GithubAppField, string> = {
  app_id: 'MONITOR_VCS_APP_ID',
  client_id: 'MONITOR_VCS_CLIENT_ID',
  private_key: 'MONITOR_VCS_PRIVATE_KEY_PATH',
  webhook_secret: 'MONITOR_VCS_WEBHOOK_SECRET',
  public_base_url: 'MONITOR_PUBLIC_BASE_URL',
};

export function githubAppLocks(settings: GithubAppSettings): Record<GithubAppField, FieldLock> {
  return fieldLocks(settings.locked_fields, GITHUB_APP_VARIABLES);
}

export interface GithubAppFormValues {
  app_id: string;
  client_id: string;
  public_base_url: string;
  /** PEM text (pasted or read from the chosen file); empty keeps the saved key. */
  private_key: string;
  clear_private_key: boolean;
  webhook_secret: string;
  clear_webhook_secret: boolean;
}

export function githubAppFormFrom(settings: GithubAppSettings): GithubAppFormValues {
  return {
    app_id: settings.app_id ?? '',
    client_id: settings.client_id ?? '',
    public_base_url: settings.public_base_url ?? '',
    private_key: '',
    clear_private_key: false,
    webhook_secret: '',
    clear_webhook_secret: false,
  };
}

/**
 * The PUT body: locked fields are never sent (the service refuses them with 409); an emptied text
 * field clears the stored value (null); secrets are sent only when typed or explicitly cleared.
 */
export function githubAppUpdateBody(values: GithubAppFormValues, settings: GithubAppSettings): Schemas['UpdateGithubAppSettingsDto'] {
  const locks = githubAppLocks(settings);
  const body: Schemas['UpdateGithubAppSettingsDto'] = {};
  const text = (field: 'app_id' | 'client_id' | 'public_base_url') => {
    if (locks[field].locked) return;
    const value = values[field].trim();
    if (value !== (settings[field] ?? '')) body[field] = value === '' ? null : value;
  };
  text('app_id');
  text('client_id');
  text('public_base_url');
  if (!locks.private_key.locked) {
    if (values.clear_private_key) body.private_key = null;
    else if (values.private_key.trim()) body.private_key = values.private_key.trim();
  }
  if (!locks.webhook_secret.locked) {
    if (values.clear_webhook_secret) body.webhook_secret = null;
    else if (values.webhook_secret) body.webhook_secret = values.webhook_secret;
  }
  return body;
}

/** Where GitHub sends the App's webhooks: the public base URL + /webhooks/github. */
export function webhookUrl(publicBaseUrl: string | null | undefined): string | null {
  if (!publicBaseUrl) return null;
  return `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/github`;
}

/** A quick look at pasted or uploaded key text, so a wrong file is caught before it is sent. */
export function looksLikePem(text: string): boolean {
  return /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/.test(text.trim());
}
