import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The single administrator (id is always 1; the table's CHECK refuses a second row). */
@Entity({ name: 'admin_account' })
export class AdminAccountEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  username!: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  /** The TOTP secret as an encrypted envelope; set by setup, in force only once totpEnabled. */
  @Column({ name: 'totp_secret', type: 'text', nullable: true })
  totpSecret!: string | null;

  @Column({ name: 'totp_enabled', type: Boolean, default: false })
  totpEnabled!: boolean;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}

export const ADMIN_ACCOUNT_ID = 1;
