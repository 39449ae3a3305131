import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A console session; only SHA-256 hashes of the cookie token and the CSRF token are stored. */
@Entity({ name: 'admin_sessions' })
export class AdminSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ name: 'csrf_hash', type: 'varchar', length: 64 })
  csrfHash!: string;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: Date })
  expiresAt!: Date;

  @Column({ name: 'last_seen_at', type: Date })
  lastSeenAt!: Date;

  @Column({ name: 'client_ip', type: 'varchar', length: 64, nullable: true })
  clientIp!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true })
  userAgent!: string | null;
}
