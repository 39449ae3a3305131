import { RawVariables } from '@shared/config';
import { createTestPostgresDatabase, requestJson, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { TELEGRAM_GATEWAY, TelegramGateway } from '../src/app/telegram/telegram-gateway';
import { RunningPanel, startPanel, StartOptions } from './harness';

/** What `GET /api/ops/cluster` answers. */
export interface ClusterBody {
  enabled: boolean;
  replica_id: string;
  replicas: Array<{ id: string; address: string; version: string; last_heartbeat_at: string; leader: boolean; accounts: string[] }>;
  accounts: Array<{ name: string; owner: string | null; epoch: number }>;
}

/** Polls `read` until `done` holds, at most `timeoutMs`; returns the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

/** `GET /api/ops/cluster` of one replica, which must answer 200. */
export async function clusterOf(panel: Pick<RunningPanel, 'url'>, token: string): Promise<ClusterBody> {
  const response = await requestJson<ClusterBody>(panel.url, '/api/ops/cluster', { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** An open SSE connection (the live sign history) that collects what the server sends until it ends the stream. */
export interface OpenStream {
  text: () => string;
  ended: Promise<number>;
  abort: () => void;
}

export async function openStream(url: string, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events/sign-history?token=${encodeURIComponent(token)}`, { signal: controller.signal });
  expect(response.status).toBe(200);
  let text = '';
  const ended = (async () => {
    if (!response.body) return Date.now();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
    } catch {
      // aborted by the test
    }
    return Date.now();
  })();
  return { text: () => text, ended, abort: () => controller.abort() };
}

export interface ClusterReplicasOptions {
  /** Name prefix of the PostgreSQL database created for each test (on SQLite none is made). */
  databaseName: string;
  /** Prefix of the data directories. */
  dirPrefix: string;
  /** The APP_JWT_SECRET every replica shares (docs/scaling.md), so a token from one works on the others. */
  jwtSecret: string;
  /** APP_CLUSTER_LEASE_SECONDS; the service's default when left out. */
  leaseSeconds?: number;
  /** The Telegram gateway every replica shares (the simulator). */
  telegram?: TelegramGateway;
  /** Every replica uses one data directory (a ReadWriteMany volume) instead of its own. */
  sharedDataDir?: boolean;
  /** More variables for every replica. */
  env?: RawVariables;
}

export interface ClusterReplicas {
  /** The replicas started in the current test, in start order. */
  readonly panels: RunningPanel[];
  /** The current test's PostgreSQL database (undefined on SQLite). */
  readonly database: TestPostgresDatabase | undefined;
  /** The shared data directory (with `sharedDataDir`); a fresh one for each test. */
  readonly sharedDataDir: string;
  /** A fresh data directory, removed after the test. */
  newDataDir: () => string;
  /** Starts a replica on the test's database: on its own fresh data directory unless `dataDir` (or `sharedDataDir`) says which. */
  start: (options?: { env?: RawVariables; dataDir?: string; overrides?: StartOptions['overrides'] }) => Promise<RunningPanel>;
}

/**
 * Replicas of one database for the cluster e2e specs: registers the hooks that create each test's
 * database (PostgreSQL only) and, after it, stop its replicas, drop the database and remove the data
 * directories. Call it inside a `describe`.
 */
export function clusterReplicas(options: ClusterReplicasOptions): ClusterReplicas {
  const panels: RunningPanel[] = [];
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  let database: TestPostgresDatabase | undefined;
  let shared: string | undefined;

  const newDataDir = () => {
    const dir = tempDir(options.dirPrefix);
    dirs.push(dir);
    return dir.path;
  };

  beforeEach(async () => {
    if (testDatabaseDriver() === 'postgres') database = await createTestPostgresDatabase(options.databaseName);
    if (options.sharedDataDir) shared = newDataDir();
  });

  afterEach(async () => {
    for (const panel of panels.splice(0)) await panel.stop();
    await database?.drop();
    database = undefined;
    shared = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
  });

  return {
    panels,
    get database() {
      return database;
    },
    get sharedDataDir() {
      if (!shared) throw new Error('clusterReplicas: sharedDataDir is not set for this spec');
      return shared;
    },
    newDataDir,
    start: async (startOptions = {}) => {
      const overrides = [...(options.telegram ? [{ provide: TELEGRAM_GATEWAY, useValue: options.telegram }] : []), ...(startOptions.overrides ?? [])];
      const panel = await startPanel({
        reuse: { dataDir: startOptions.dataDir ?? shared ?? newDataDir(), databaseUrl: database?.url },
        env: {
          APP_JWT_SECRET: options.jwtSecret,
          ...(options.leaseSeconds ? { APP_CLUSTER_LEASE_SECONDS: String(options.leaseSeconds) } : {}),
          ...(options.env ?? {}),
          ...(startOptions.env ?? {}),
        },
        overrides,
      });
      panels.push(panel);
      return panel;
    },
  };
}
