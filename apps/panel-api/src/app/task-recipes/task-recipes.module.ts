import { Module } from '@nestjs/common';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { TaskRecipesController } from './task-recipes.controller';

/** The built-in task recipes and a task's export to / import from a shareable recipe document. */
@Module({
  imports: [SignTasksModule],
  controllers: [TaskRecipesController],
})
export class TaskRecipesModule {}
