import type { ValueTransformer } from 'typeorm';

/**
 * `YYYY-MM-DD HH:MM:SS.mmm` in UTC. Written as this text, a time means the same instant on SQLite
 * (compared as text) and in a PostgreSQL `timestamp` column whatever the process time zone is
 * (node-postgres would otherwise serialise a Date in local time, and the column drops the offset).
 */
export function utcTimestampText(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

export const utcTimestampTransformer: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? utcTimestampText(value) : value),
  from: (value: Date | string | null) => (typeof value === 'string' ? new Date(`${value.replace(' ', 'T')}Z`) : value),
};
