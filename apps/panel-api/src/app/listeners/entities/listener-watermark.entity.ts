import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last message id a listener has handled in one chat of one account; a reconnect never replays below it. */
@Entity('listener_watermarks')
export class ListenerWatermark {
  @PrimaryColumn({ name: 'account_name', type: 'varchar', length: 64 })
  accountName!: string;

  @PrimaryColumn({ name: 'chat_id', type: 'varchar', length: 64 })
  chatId!: string;

  @Column({ name: 'last_message_id', type: 'integer' })
  lastMessageId!: number;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
