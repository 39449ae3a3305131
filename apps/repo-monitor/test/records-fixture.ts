import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PayloadReader } from '../src/app/common/payload-reader';
import { RepositoryEntity } from '../src/app/repositories/repository.entity';
import { RepositoryRepository } from '../src/app/repositories/repository.repository';
import { DatabaseWork } from '../src/database/database-work';
import { RunningMonitor, startMonitor } from './harness';

/** A minute of 1 May 2026 after 10:00 UTC: the fixed times the record specs write. */
export const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 10, minute));

/** One running monitor whose repositories a spec calls directly, on the driver of the run (TEST_DATABASE_DRIVER). */
export interface RecordsFixture {
  readonly app: NestFastifyApplication;
  readonly database: DatabaseWork;
  /** Stores a watched repository with a fresh GitHub id: of installation 1 (or `installationId`), or external. */
  repository(fullName: string, options?: { installationId?: number; external?: boolean }): Promise<RepositoryEntity>;
}

/**
 * Starts the monitor before the calling describe block's tests and removes it (and its data) after;
 * the set-up the specs of repository reads and writes share.
 */
export function recordsFixture(): RecordsFixture {
  let monitor: RunningMonitor | undefined;
  let githubId = 7000;
  beforeAll(async () => {
    monitor = await startMonitor();
  });
  afterAll(async () => {
    await monitor?.close();
  });

  const app = (): NestFastifyApplication => {
    if (!monitor) throw new Error('the monitor is not running: use the fixture inside the describe block that created it');
    return monitor.app;
  };
  return {
    get app() {
      return app();
    },
    get database() {
      return app().get(DatabaseWork);
    },
    async repository(fullName, options = {}) {
      const reader = PayloadReader.of({ id: ++githubId, full_name: fullName, html_url: `https://github.com/${fullName}` });
      const source = options.external ? { source: 'external' as const, now: at(0) } : { source: 'installation' as const, installationId: options.installationId ?? 1, now: at(0) };
      const row = await app()
        .get(DatabaseWork)
        .transaction((manager) => app().get(RepositoryRepository).upsertFromGithub(manager, reader, source));
      if (!row) throw new Error(`no repository ${fullName}`);
      return row;
    },
  };
}
