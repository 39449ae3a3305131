import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RunsModule } from '../runs/runs.module';
import { SignHistoryStreamController } from './sign-history-stream.controller';

/** Server-sent event streams under /api/events/ (the only routes that accept `?token=`). */
@Module({
  imports: [RunsModule, AuthModule],
  controllers: [SignHistoryStreamController],
})
export class EventsModule {}
