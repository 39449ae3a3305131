import { Global, Module } from '@nestjs/common';
import { EncryptedColumnRepository } from './encrypted-column.repository';
import { GithubAppSharedSettings } from './github-app-shared-settings';
import { KeyRotationService } from './key-rotation.service';
import { SecretCipher } from './secret-cipher';
import { SettingsChanges } from './settings-changes';
import { SettingsStore } from './settings.store';

/**
 * The settings table, the master-key cipher every feature stores its secrets with, and the two GitHub
 * App settings (public base URL, inbound webhook secrets) that features below the App's settings read,
 * and the announcement of settings changes to every replica's caches.
 */
@Global()
@Module({
  providers: [SecretCipher, SettingsStore, EncryptedColumnRepository, KeyRotationService, GithubAppSharedSettings, SettingsChanges],
  exports: [SecretCipher, SettingsStore, GithubAppSharedSettings, SettingsChanges],
})
export class SettingsModule {}
