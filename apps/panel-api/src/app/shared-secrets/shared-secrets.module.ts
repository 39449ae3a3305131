import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharedSecretRow } from './shared-secret-row.entity';
import { SharedSecretStore } from './shared-secret.store';

/** Secrets every replica shares (the backup key, the generated first admin password). Global: auth and backups both use it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SharedSecretRow])],
  providers: [SharedSecretStore],
  exports: [SharedSecretStore],
})
export class SharedSecretsModule {}
