import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row of the settings table: a key and its JSON value. */
@Entity({ name: 'settings' })
export class SettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  key!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
