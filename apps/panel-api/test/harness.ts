import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawVariables } from '@shared/config';
import { createTestPostgresDatabase, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { createPanelApp, listenPanelApp } from '../src/app/create-app';
import { loadPanelConfig, PanelConfig } from '../src/app/config/panel-config';

export interface RunningPanel {
  url: string;
  app: NestFastifyApplication;
  config: PanelConfig;
  dataDir: string;
  /** Stops the app; keeps the data directory and database so a test can start again on them. */
  stop: () => Promise<void>;
  /** Stops the app and removes its data directory and database. */
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: RawVariables;
  /** Reuse the data directory (and database) of an earlier instance. */
  reuse?: { dataDir: string; databaseUrl?: string };
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
    database = await createTestPostgresDatabase('panel');
    databaseUrl = database.url;
  }
  const config = loadPanelConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    APP_DATA_DIR: dir.path,
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'correct horse battery',
    ...(databaseUrl ? { APP_DATABASE_URL: databaseUrl } : {}),
    ...(options.env ?? {}),
  });
  const app = await createPanelApp(config);
  const url = await listenPanelApp(app, config);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  return {
    url,
    app,
    config,
    dataDir: dir.path,
    databaseUrl,
    stop,
    close: async () => {
      await stop();
      await database?.drop();
      dir.remove();
    },
  };
}
