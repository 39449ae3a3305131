import type { FieldProblem } from '@shared/http-service';
import { SettingsPatch } from './settings.types';

type FieldName = keyof SettingsPatch;

/** A setting that says where requests go, and the secrets those requests carry. */
export interface SecretDestination {
  url: FieldName;
  secrets: readonly FieldName[];
}

/**
 * Every settings URL whose requests carry a stored secret. The Bot API token and the Telegram
 * api_hash are not here: they only ever go to Telegram, whose address is not a setting.
 */
export const SECRET_DESTINATIONS: readonly SecretDestination[] = [
  { url: 'webdav_url', secrets: ['webdav_password'] },
  { url: 'ai_base_url', secrets: ['ai_api_key'] },
  { url: 'push_ntfy_url', secrets: ['push_ntfy_token'] },
  { url: 'push_gotify_url', secrets: ['push_gotify_token'] },
  // A host name, not a URL: credentialOrigin compares it as it is written.
  { url: 'push_email_smtp_host', secrets: ['push_email_smtp_password'] },
  { url: 'webhook_url', secrets: ['webhook_secret'] },
];

/**
 * The origin (scheme, host, port) a URL sends credentials to, or undefined for none. Credentials
 * are scoped like a browser scopes them: another path on the same server is the same destination,
 * while another host, another port or http instead of https is a new one.
 */
export function credentialOrigin(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? url : parsed.origin;
  } catch {
    return url;
  }
}

/** True when a secret given for `from` would reach another server if it were sent to `to`. */
export function isNewSecretDestination(from: string | null | undefined, to: string | null | undefined): boolean {
  const next = credentialOrigin(to);
  return next !== undefined && next !== credentialOrigin(from);
}

/**
 * The rule "a stored secret does not follow a changed URL", for a change written with the API's
 * field names: for every URL the change points at another server (see credentialOrigin), each
 * secret that is stored and that the change neither sets anew nor clears is a problem. A field
 * absent from `patch` (or `undefined`) is kept. Returns "field message" lines like the other
 * settings checks; empty when the change may be applied.
 *
 * The settings update and the configuration import share it: a masked secret in an import is
 * "kept", so it is refused in the same way when its URL changes.
 */
export function secretsLeftAtOldDestination(stored: (field: FieldName) => unknown, patch: SettingsPatch): string[] {
  return secretsLeftBehind(stored, patch).map((problem) => problem.line);
}

/** secretsLeftAtOldDestination with each problem's entry for a form (rule `secret_needed_again` on the secret). */
export function secretsLeftBehind(stored: (field: FieldName) => unknown, patch: SettingsPatch): Array<{ line: string; field: FieldProblem }> {
  const problems: Array<{ line: string; field: FieldProblem }> = [];
  for (const destination of SECRET_DESTINATIONS) {
    const nextUrl = patch[destination.url];
    if (nextUrl === undefined) continue;
    const storedUrl = stored(destination.url);
    if (!isNewSecretDestination(typeof storedUrl === 'string' ? storedUrl : null, typeof nextUrl === 'string' ? nextUrl : null)) continue;
    for (const secret of destination.secrets) {
      if (patch[secret] !== undefined) continue;
      const kept = stored(secret);
      if (typeof kept !== 'string' || kept === '') continue;
      problems.push({
        line:
          `${secret} must be given again because ${destination.url} now points to another server; ` +
          `the stored ${secret} is never sent to a new destination (send the value, or null to clear it)`,
        field: {
          field: secret,
          rule: 'secret_needed_again',
          message: 'The address now points to another server, and a saved secret is never sent to a new one: enter it again, or clear it.',
        },
      });
    }
  }
  return problems;
}
