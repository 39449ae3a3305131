import { Module } from '@nestjs/common';
import { WorkflowRunRepository } from './workflow-run.repository';
import { WorkflowRunsController } from './workflow-runs.controller';

/** The read API over workflow runs, as processing recorded them. */
@Module({ providers: [WorkflowRunRepository], exports: [WorkflowRunRepository], controllers: [WorkflowRunsController] })
export class WorkflowRunsModule {}
