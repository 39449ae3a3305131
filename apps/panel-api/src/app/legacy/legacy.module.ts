import { Module } from '@nestjs/common';
import { LegacyTasksController } from './legacy-tasks.controller';

@Module({ controllers: [LegacyTasksController] })
export class LegacyModule {}
