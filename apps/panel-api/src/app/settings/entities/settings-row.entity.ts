import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../../data-dir/entities/bigint-number';

/**
 * One settings group (`global`, `ai`, `telegram_api`: what `.global_settings.json`,
 * `.openai_config.json` and `.telegram_api.json` held) as a JSON document whose secret fields and
 * unknown keys are sealed (see StoredSettingsDocument), and the store revision of its last write.
 */
@Entity('panel_settings')
export class SettingsRow {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name!: string;

  @Column({ type: 'text' })
  document!: string;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  revision!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: BIGINT_NUMBER })
  updatedAt!: number;
}
