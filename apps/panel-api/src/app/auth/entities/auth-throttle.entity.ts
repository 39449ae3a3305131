import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Milliseconds since the epoch in a `bigint` column (PostgreSQL's driver reads bigint as text). */
export const EPOCH_MS = {
  to: (value: number): number => value,
  from: (value: string | number): number => Number(value),
};

/**
 * Failed guesses at one admin account (`password:<id>` or `totp:<id>`), from whatever address. In
 * the database so that every replica counts the same guesses.
 */
@Entity('auth_throttles')
export class AuthThrottle {
  @PrimaryColumn({ type: 'varchar', length: 96 })
  key!: string;

  @Column({ type: 'integer' })
  failures!: number;

  @Column({ name: 'last_failure_at', type: 'bigint', transformer: EPOCH_MS })
  lastFailureAt!: number;
}
