import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { SignHistoryStreamController } from './sign-history-stream.controller';

/** Server-sent event streams under /api/events/ (the only routes that accept `?token=`). */
@Module({
  imports: [RunsModule],
  controllers: [SignHistoryStreamController],
})
export class EventsModule {}
