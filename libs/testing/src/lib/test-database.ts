import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { tempDir } from './temp-dir';

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
 * A migrated database that test databases are copied from, so each started service finds its schema
 * in place instead of running every migration again (a quarter of a second of PostgreSQL's time and
 * of the test process's, per start, hundreds of starts per run).
 */
export interface TestDatabaseTemplate {
  /** Which service's schema (`panel`, `monitor`): part of the template's name. */
  name: string;
  /** Changes whenever the schema would: a hash of the migration files (filesKey). */
  key: string;
  /** Runs every migration on the empty database (PostgreSQL URL or SQLite file path), then closes it. */
  migrate: (target: string) => Promise<void>;
}

/** A hash of every file under the folders (paths and contents): the key of a template made from them. */
export function filesKey(...folders: string[]): string {
  const hash = createHash('sha256');
  const walk = (root: string, folder: string) => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) walk(root, path);
      else hash.update(`${relative(root, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  for (const folder of folders) walk(folder, folder);
  return hash.digest('hex').slice(0, 16);
}

/** Templates this process has seen in place already (a later start only copies). */
const readyTemplates = new Set<string>();

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Makes the PostgreSQL template once per schema: under an advisory lock, so parallel test processes
 * build it once; migrated under another name and renamed when done, so a process killed half-way
 * leaves no half-migrated template; closed to connections, so copying it never finds it in use.
 * A changed migration changes the key and so the name: a stale template is never used.
 */
async function ensurePostgresTemplate(admin: Client, adminUrl: string, template: TestDatabaseTemplate): Promise<string> {
  const name = `template_${template.name}_${template.key}`.toLowerCase();
  if (readyTemplates.has(name)) return name;
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  try {
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!existing.rowCount) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await template.migrate(databaseUrl(adminUrl, building));
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  }
  readyTemplates.add(name);
  return name;
}

/**
 * Creates a PostgreSQL database for one test run, empty or (with a template) a copy of the migrated
 * template; `drop()` removes it again (closing leftover connections first). Fails loudly when
 * PostgreSQL cannot be reached: never skips.
 */
export async function createTestPostgresDatabase(prefix = 'test', template?: TestDatabaseTemplate): Promise<TestPostgresDatabase> {
  const adminUrl = testAdminDatabaseUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (template) {
      const templateName = await ensurePostgresTemplate(admin, adminUrl, template);
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName}"`);
    } else {
      await admin.query(`CREATE DATABASE "${name}"`);
    }
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(adminUrl, name),
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

/**
 * Puts a copy of the migrated SQLite template at `path` (owner-only, as the services create their
 * file). The template is made once per schema in the system's temporary folder: migrated in a
 * folder of its own and renamed into place, so a process that reads it never sees it half-made.
 */
export async function copySqliteTemplate(template: TestDatabaseTemplate, path: string): Promise<void> {
  const file = join(tmpdir(), `template-${template.name}-${template.key}.sqlite`);
  if (!existsSync(file)) {
    const building = tempDir(`template-${template.name}-`);
    try {
      const built = join(building.path, 'template.sqlite');
      await template.migrate(built);
      // Everything must be in the one file that is copied (SQLite folds its WAL in when the last connection closes).
      if (existsSync(`${built}-wal`) && statSync(`${built}-wal`).size > 0) throw new Error(`the SQLite template ${built} was left with a write-ahead log`);
      renameSync(built, file);
    } finally {
      building.remove();
    }
  }
  copyFileSync(file, path);
  chmodSync(path, 0o600);
}
