import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawVariables } from '@shared/config';
import { createTestPostgresDatabase, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { join } from 'node:path';
import { createMonitorApp, listenMonitorApp } from '../src/app/create-app';
import { loadMonitorConfig, MonitorConfig } from '../src/app/config/monitor-config';

export interface RunningMonitor {
  url: string;
  app: NestFastifyApplication;
  config: MonitorConfig;
  dataDir: string;
  /** The variables this instance was started with, to start another on the same data. */
  env: RawVariables;
  /** Stops the app; keeps its data so a test can start again on it. */
  stop: () => Promise<void>;
  /** Stops the app and removes its data directory and database. */
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: RawVariables;
  /** Start on the data of an earlier instance (pass its `env`). */
  reuseEnv?: RawVariables;
}

/**
 * Boots the real repo-monitor on a random port with a fresh SQLite file, or (with
 * TEST_DATABASE_DRIVER=postgres) a PostgreSQL database created for this instance.
 */
export async function startMonitor(options: StartOptions = {}): Promise<RunningMonitor> {
  const dir = tempDir('monitor-e2e-');
  let database: TestPostgresDatabase | undefined;
  let env: RawVariables;
  if (options.reuseEnv) {
    env = { ...options.reuseEnv, ...(options.env ?? {}) };
  } else {
    const databaseEnv: RawVariables =
      testDatabaseDriver() === 'postgres'
        ? ((database = await createTestPostgresDatabase('monitor')),
          { MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: database.url })
        : { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: `file:${join(dir.path, 'repo-monitor.db')}` };
    env = { MONITOR_HTTP_ADDR: '127.0.0.1:0', MONITOR_LOG_LEVEL: 'warn', ...databaseEnv, ...(options.env ?? {}) };
  }
  const config = loadMonitorConfig({ env });
  const app = await createMonitorApp(config);
  const url = await listenMonitorApp(app, config);
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
    env,
    stop,
    close: async () => {
      await stop();
      await database?.drop();
      dir.remove();
    },
  };
}
