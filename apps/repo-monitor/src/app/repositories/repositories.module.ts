import { Module } from '@nestjs/common';
import { RepositoriesController } from './repositories.controller';
import { RepositoryRepository } from './repository.repository';

/** The console's and agents' read and edit API over the watched repositories. */
@Module({ providers: [RepositoryRepository], exports: [RepositoryRepository], controllers: [RepositoriesController] })
export class RepositoriesModule {}
