import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a notifying event was matched on (EventFacts) and where routing sent it (RoutingDecision), both JSON. */
@Entity({ name: 'event_routing' })
export class EventRoutingEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' }) eventId!: number;
  @Column({ type: 'text' }) facts!: string;
  @Column({ type: 'text' }) decision!: string;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
}
