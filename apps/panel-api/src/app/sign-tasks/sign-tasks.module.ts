import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { SignTasksController } from './sign-tasks.controller';
import { SignTasksService } from './sign-tasks.service';
import { TaskStore } from './task-store';

/**
 * Sign and listen tasks: the documents in the database (`sign_tasks`), their validation and CRUD routes.
 * Import it and inject SignTasksService to read tasks and follow their changes.
 */
@Module({
  imports: [AccountsModule],
  controllers: [SignTasksController],
  providers: [TaskStore, SignTasksService],
  exports: [SignTasksService],
})
export class SignTasksModule {}
