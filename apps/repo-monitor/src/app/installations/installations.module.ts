import { Module } from '@nestjs/common';
import { InstallationRepository } from './installation.repository';
import { InstallationsController } from './installations.controller';

/** The read API over the GitHub App's installations. */
@Module({ providers: [InstallationRepository], exports: [InstallationRepository], controllers: [InstallationsController] })
export class InstallationsModule {}
