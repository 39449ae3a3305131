import { Module } from '@nestjs/common';
import { WorkItemRepository } from './work-item.repository';
import { WorkItemsController } from './work-items.controller';

/** The read API over issues and pull requests, as processing recorded them. */
@Module({ providers: [WorkItemRepository], exports: [WorkItemRepository], controllers: [WorkItemsController] })
export class WorkItemsModule {}
