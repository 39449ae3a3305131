import { ClusterService } from '../cluster/cluster.service';
import { createTestPostgresDatabase, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { encodeSessionString } from '../telegram/session-string';
import { AccountChange, AccountStore } from './account-store';
import { AccountRow } from './entities/account-row.entity';
import { SealedSessionError, SessionCipher } from './session-cipher';

const KEY = 'ab'.repeat(32);

function session(): string {
  return encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey: randomBytes(256) });
}

async function nextTick(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

/** Replicas of the account store: each its own data directory and connection, one database. */
describe('AccountStore: replicas on one database', () => {
  let shared: ReturnType<typeof tempDir>;
  let postgres: TestPostgresDatabase | undefined;
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const sources: DataSource[] = [];
  const stores: AccountStore[] = [];

  const startStore = async (key = KEY): Promise<AccountStore> => {
    const dir = tempDir('account-store-replica-');
    dirs.push(dir);
    const directory = new DataDirectory(dir.path);
    directory.prepare();
    const target = postgres ? ({ driver: 'postgres', url: postgres.url } as const) : ({ driver: 'sqlite', path: join(shared.path, 'db.sqlite') } as const);
    const source = new DataSource(dataSourceOptions(target));
    await source.initialize();
    sources.push(source);
    const cipher = new SessionCipher(directory, { auth: { encryptionKey: key } } as PanelConfig);
    // The stores here share one database as replicas do; leases are ClusterService's own tests' business.
    const store = new AccountStore(directory, cipher, source, { adopt: async () => true } as unknown as ClusterService);
    await store.onModuleInit();
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    shared = tempDir('account-store-db-');
    if (testDatabaseDriver() === 'postgres') postgres = await createTestPostgresDatabase('h3_account_store');
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) store.onModuleDestroy();
    for (const source of sources.splice(0)) await source.destroy();
    await postgres?.drop();
    postgres = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
    shared.remove();
  });

  it('shows another replica its accounts and sessions after a refresh, and tells it what changed', async () => {
    const first = await startStore();
    const second = await startStore();
    const seen: AccountChange[] = [];
    second.onExternalChange((change) => seen.push(change));
    const alice = session();
    await first.writeSession('alice', alice);
    await first.updateMeta('alice', (meta) => (meta.remark = 'main'));
    expect(second.exists('alice')).toBe(false);
    await second.refresh();
    expect(second.get('alice')).toMatchObject({ remark: 'main', has_session: true });
    expect(second.readSession('alice')).toBe(alice);

    // A change of the metadata only is no new login; a new session is.
    await first.updateMeta('alice', (meta) => (meta.remark = 'renamed'));
    await second.refresh();
    const renewed = session();
    await first.writeSession('alice', renewed);
    await second.refresh();
    expect(second.readSession('alice')).toBe(renewed);
    expect(await first.remove('alice')).toBe(true);
    expect(await first.remove('alice')).toBe(false);
    await second.refresh();
    expect(second.exists('alice')).toBe(false);
    await nextTick();
    expect(seen).toEqual([
      { loggedIn: ['alice'], removed: [] },
      { loggedIn: ['alice'], removed: [] },
      { loggedIn: [], removed: ['alice'] },
    ]);
  });

  it('changes the stored metadata, keeping what another replica changed meanwhile', async () => {
    const first = await startStore();
    const second = await startStore();
    await first.writeSession('bob', session());
    await second.refresh();
    await first.updateMeta('bob', (meta) => (meta.remark = 'from first'));
    // second has not refreshed: its change still lands on the stored row.
    await second.updateMeta('bob', (meta) => (meta.needs_relogin = true));
    await first.refresh();
    expect(first.get('bob')).toMatchObject({ remark: 'from first', needs_relogin: true });
  });

  it('keeps the session sealed in its row, bound to the account, and opened only with the key', async () => {
    const first = await startStore();
    const carol = session();
    await first.writeSession('carol', carol);
    const rows = sources[0].getRepository(AccountRow);
    const row = await rows.findOneByOrFail({ name: 'carol' });
    expect(row.sealedSession).toMatch(/^v1\.[0-9a-f]{12}\./);
    expect(JSON.stringify(row)).not.toContain(carol);

    // Another key: the account is listed, its session does not open (and says why).
    const otherKey = await startStore('cd'.repeat(32));
    expect(otherKey.get('carol')).toMatchObject({ has_session: true });
    expect(() => otherKey.readSession('carol')).toThrow(SealedSessionError);

    // A sealed session moved to another account's row does not open there.
    await first.writeSession('dave', session());
    await rows.update({ name: 'dave' }, { sealedSession: row.sealedSession, revision: 10_000 });
    const third = await startStore();
    expect(() => third.readSession('dave')).toThrow(SealedSessionError);
    expect(third.readSession('carol')).toBe(carol);
  });
});
