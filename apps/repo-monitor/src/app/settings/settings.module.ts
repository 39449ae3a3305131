import { Global, Module } from '@nestjs/common';
import { KeyRotationService } from './key-rotation.service';
import { SecretCipher } from './secret-cipher';
import { SettingsStore } from './settings.store';

/** The settings table and the master-key cipher every feature stores its secrets with. */
@Global()
@Module({
  providers: [SecretCipher, SettingsStore, KeyRotationService],
  exports: [SecretCipher, SettingsStore],
})
export class SettingsModule {}
