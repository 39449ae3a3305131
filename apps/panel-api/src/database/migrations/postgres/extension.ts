import { QueryRunner } from 'typeorm';

/**
 * Creates a contrib extension (pg_trgm, btree_gin) when it is missing and this user may: both ship
 * with PostgreSQL and are trusted, so the owner of the database may create them without being a
 * superuser. `missing`: the server does not have it; `forbidden`: this user may not create it.
 */
export async function ensureExtension(queryRunner: QueryRunner, name: string): Promise<'ready' | 'missing' | 'forbidden'> {
  const [installed] = (await queryRunner.query(`SELECT 1 FROM pg_extension WHERE extname = $1`, [name])) as unknown[];
  if (installed) return 'ready';
  const [available] = (await queryRunner.query(`SELECT 1 FROM pg_available_extensions WHERE name = $1`, [name])) as unknown[];
  if (!available) return 'missing';
  const [allowed] = (await queryRunner.query(
    `SELECT 1 WHERE has_database_privilege(current_database(), 'CREATE') AND (
       (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR
       EXISTS (SELECT 1 FROM pg_available_extension_versions WHERE name = $1 AND trusted))`,
    [name],
  )) as unknown[];
  if (!allowed) return 'forbidden';
  await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS ${name}`);
  return 'ready';
}
