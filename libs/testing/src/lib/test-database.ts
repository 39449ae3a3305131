import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export type TestDatabaseDriver = 'sqlite' | 'postgres';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Which database the e2e run targets: TEST_DATABASE_DRIVER=sqlite (default) or postgres. */
export function testDatabaseDriver(): TestDatabaseDriver {
  const driver = process.env['TEST_DATABASE_DRIVER'] ?? 'sqlite';
  if (driver !== 'sqlite' && driver !== 'postgres') {
    throw new Error(`TEST_DATABASE_DRIVER must be sqlite or postgres, not ${driver}`);
  }
  return driver;
}

/** The administrative PostgreSQL URL tests create their databases through. */
export function testAdminDatabaseUrl(): string {
  return process.env['TEST_DATABASE_URL'] || DEFAULT_TEST_DATABASE_URL;
}

export interface TestPostgresDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

/**
 * Creates an empty PostgreSQL database for one test run; `drop()` removes it again (closing
 * leftover connections first). Fails loudly when PostgreSQL cannot be reached: never skips.
 */
export async function createTestPostgresDatabase(prefix = 'test'): Promise<TestPostgresDatabase> {
  const adminUrl = testAdminDatabaseUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
