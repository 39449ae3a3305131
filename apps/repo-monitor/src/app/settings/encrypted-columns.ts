/**
 * Every database column that holds an envelope-encrypted secret, besides secret settings. Key
 * rotation re-encrypts each of them at startup; a feature that stores a new kind of secret adds
 * its column here and seals with the same associated data.
 */
export interface EncryptedColumn {
  table: string;
  idColumn: string;
  column: string;
  /** Binds the ciphertext to its row so it cannot be copied elsewhere. */
  associatedData: (id: string) => string;
}

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  {
    table: 'notification_channels',
    idColumn: 'id',
    column: 'secret',
    associatedData: (id) => `notification_channels.secret:${id}`,
  },
  {
    table: 'admin_account',
    idColumn: 'id',
    column: 'totp_secret',
    associatedData: (id) => `admin_account.totp_secret:${id}`,
  },
];

/** Associated data of a secret setting. */
export function settingAssociatedData(key: string): string {
  return `settings:${key}`;
}

/**
 * Console-set GitHub App fields that are sealed like secrets although they are not secret in
 * themselves (they reveal which app and which host the service is): written sealed, and values an
 * earlier version stored in clear are sealed at startup.
 */
export const SEALED_GITHUB_SETTING_KEYS = {
  appId: 'github.app_id',
  clientId: 'github.client_id',
  publicBaseUrl: 'github.public_base_url',
} as const;
