import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawVariables } from '@shared/config';
import { copySqliteTemplate, createTestPostgresDatabase, filesKey, requestJson, tempDir, testDatabaseDriver, TestDatabaseTemplate, TestPostgresDatabase } from '@shared/testing';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createPanelApp, listenPanelApp, PanelAppOptions, shutDownPanelApp } from '../src/app/create-app';
import { loadPanelConfig, PanelConfig } from '../src/app/config/panel-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { GOVERNOR_CLOCK } from '../src/app/governor/governor-clock';
import { VirtualClock } from './virtual-clock';

export interface RunningPanel {
  url: string;
  app: NestFastifyApplication;
  config: PanelConfig;
  dataDir: string;
  /** Every route the application registered with Fastify while starting (method and URL pattern). */
  routes: RegisteredRoute[];
  /** Stops the app; keeps the data directory and database so a test can start again on them. */
  stop: () => Promise<void>;
  /** Stops the app as SIGTERM does (503 while draining); keeps its data. */
  shutDown: () => Promise<void>;
  /** Stops the app and removes its data directory and database. */
  close: () => Promise<void>;
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

/** The APP_ENCRYPTION_KEY startPanel gives instances on PostgreSQL (SQLite instances generate their own). */
export const TEST_ENCRYPTION_KEY = '5e'.repeat(32);

/** The APP_JWT_SECRET startPanel gives instances on PostgreSQL (required there: replicas share it). */
export const TEST_JWT_SECRET = 'panel-e2e-shared-jwt-secret-0123456789abcdef';

/** The password startPanel gives the first-start admin through ADMIN_PASSWORD. */
export const TEST_ADMIN_PASSWORD = 'correct horse battery';

const migrations = join(__dirname, '../src/database/migrations');

/**
 * The migrated schema each fresh instance starts on (a copy, per driver): every migration still
 * runs on both drivers, once per run, and the service at start finds none left to run.
 */
export const PANEL_TEMPLATE: Record<'sqlite' | 'postgres', TestDatabaseTemplate> = {
  sqlite: {
    name: 'panel',
    key: filesKey(join(migrations, 'sqlite')),
    migrate: (path) => migrate(new DataSource(dataSourceOptions({ driver: 'sqlite', path }))),
  },
  postgres: {
    name: 'panel',
    key: filesKey(join(migrations, 'postgres')),
    migrate: (url) => migrate(new DataSource(dataSourceOptions({ driver: 'postgres', url }))),
  },
};

async function migrate(dataSource: DataSource): Promise<void> {
  await dataSource.initialize();
  await dataSource.destroy();
}

export interface StartOptions {
  env?: RawVariables;
  /** Reuse the data directory (and database) of an earlier instance. */
  reuse?: { dataDir: string; databaseUrl?: string };
  /** Port replacements, e.g. `[{ provide: TELEGRAM_GATEWAY, useValue: new TelegramSimulator() }]`. */
  overrides?: PanelAppOptions['overrides'];
  /** Serve a built web app from this folder at `/` (the browser tests use dist/apps/panel-web). */
  webRoot?: string;
  /** A listener the test already listens on (to watch the start from a client). */
  lifecycle?: PanelAppOptions['lifecycle'];
  /** Runs after the app is created on its listener and before it serves. */
  beforeListen?: () => Promise<void>;
}

/**
 * Boots the real panel-api on a random port with a fresh data directory, on SQLite or (with
 * TEST_DATABASE_DRIVER=postgres) on a PostgreSQL database created for this instance.
 */
export async function startPanel(options: StartOptions = {}): Promise<RunningPanel & { databaseUrl?: string }> {
  const dir = options.reuse ? { path: options.reuse.dataDir, remove: () => undefined } : tempDir('panel-e2e-');
  let database: TestPostgresDatabase | undefined;
  let databaseUrl = options.reuse?.databaseUrl;
  if (!options.reuse && testDatabaseDriver() === 'postgres') {
    database = await createTestPostgresDatabase('panel', PANEL_TEMPLATE.postgres);
    databaseUrl = database.url;
  }
  const config = loadPanelConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    APP_DATA_DIR: dir.path,
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    // The tests' WebDAV, AI and push stand-ins listen on loopback: allowed explicitly, as an operator would.
    APP_OUTBOUND_ALLOW_PRIVATE: '1',
    // Every replica of one PostgreSQL database shares the key that seals the sessions and the token key (both required there).
    ...(databaseUrl ? { APP_DATABASE_URL: databaseUrl, APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, APP_JWT_SECRET: TEST_JWT_SECRET } : {}),
    ...(options.env ?? {}),
  });
  const freshSqlite = join(dir.path, 'db.sqlite');
  if (!options.reuse && config.database.driver === 'sqlite' && config.database.path === freshSqlite && !existsSync(freshSqlite)) {
    await copySqliteTemplate(PANEL_TEMPLATE.sqlite, freshSqlite);
  }
  // The safety governor's waits pass in virtual time unless a test brings its own clock (its own tests do).
  const overrides = [...(options.overrides ?? [])];
  if (!overrides.some((override) => override.provide === GOVERNOR_CLOCK)) overrides.push({ provide: GOVERNOR_CLOCK, useValue: new VirtualClock() });
  const app = await createPanelApp(config, { overrides, webRoot: options.webRoot, lifecycle: options.lifecycle });
  // Nest registers its routes while starting to listen; record them for the route-table test.
  const routes: RegisteredRoute[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  let url: string;
  try {
    await options.beforeListen?.();
    url = await listenPanelApp(app);
  } catch (error) {
    // A failed start (a corrupt data file, say) must not leave the database connection open.
    await app.close().catch(() => undefined);
    if (!options.reuse) {
      await database?.drop();
      dir.remove();
    }
    throw error;
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  const shutDown = async () => {
    if (stopped) return;
    stopped = true;
    await shutDownPanelApp(app, config);
  };
  return {
    url,
    app,
    config,
    dataDir: dir.path,
    routes,
    databaseUrl,
    stop,
    shutDown,
    close: async () => {
      await stop();
      await database?.drop();
      dir.remove();
    },
  };
}

/** Logs in as the first-start admin (username `admin`, ADMIN_PASSWORD of startPanel) and returns the access token. */
export async function loginAsAdmin(panel: Pick<RunningPanel, 'url'>, password = TEST_ADMIN_PASSWORD, username = 'admin'): Promise<string> {
  const response = await requestJson<{ access_token?: string }>(panel.url, '/api/auth/login', {
    method: 'POST',
    body: { username, password },
  });
  if (response.status !== 200 || !response.body.access_token) {
    throw new Error(`login as ${username} failed: ${response.status} ${response.text}`);
  }
  return response.body.access_token;
}
