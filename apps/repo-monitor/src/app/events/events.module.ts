import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { EventRecorder } from './event-recorder';
import { EventsController } from './events.controller';

@Module({
  imports: [NotificationsModule],
  controllers: [EventsController],
  providers: [EventRecorder],
  exports: [EventRecorder],
})
export class EventsModule {}
