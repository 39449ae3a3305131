import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { OutboxModule } from '../outbox/outbox.module';
import { EventRecorder } from './event-recorder';
import { EventRepository } from './event.repository';
import { EventsController } from './events.controller';

@Module({
  imports: [NotificationsModule, OutboxModule],
  controllers: [EventsController],
  providers: [EventRecorder, EventRepository],
  exports: [EventRecorder, EventRepository],
})
export class EventsModule {}
