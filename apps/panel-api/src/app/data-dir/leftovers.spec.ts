import { tempDir } from '@shared/testing';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { temporaryNameFor } from './json-file-store';
import { isLeftoverFileName, otherInstanceHoldsLock, sweepLeftovers } from './leftovers';

describe('leftovers of interrupted writes', () => {
  let dir: ReturnType<typeof tempDir>;

  beforeEach(() => {
    dir = tempDir('leftovers-');
  });

  afterEach(() => dir.remove());

  it('recognises the temporary names the atomic writers use and partial archives, nothing else', () => {
    expect(isLeftoverFileName(basename(temporaryNameFor(join(dir.path, '.global_settings.json'))))).toBe(true);
    expect(isLeftoverFileName(basename(temporaryNameFor(join(dir.path, 'sessions', 'alice.session'))))).toBe(true);
    expect(isLeftoverFileName('auto-20240101-000000.tar.gz.partial')).toBe(true);
    for (const name of ['alice.session', '.global_settings.json', 'daily.json', 'notes.tmp', 'auto-20240101-000000.tar.gz', 'x.partial', '.a.12.xyz.tmp']) {
      expect(isLeftoverFileName(name)).toBe(false);
    }
  });

  it('removes every leftover under the data directory and keeps real files', () => {
    mkdirSync(join(dir.path, 'sessions'));
    mkdirSync(join(dir.path, '.signer', 'history', 'daily'), { recursive: true });
    mkdirSync(join(dir.path, 'backups'));
    const leftovers = [
      temporaryNameFor(join(dir.path, '.global_settings.json')),
      temporaryNameFor(join(dir.path, 'sessions', 'alice.session')),
      temporaryNameFor(join(dir.path, '.signer', 'history', 'daily', 'run.json')),
      join(dir.path, 'backups', 'auto-20240101-000000.tar.gz.partial'),
    ];
    const kept = [join(dir.path, 'sessions', 'alice.session'), join(dir.path, 'backups', 'auto-20231231-000000.tar.gz'), join(dir.path, '.signer', 'daily.json')];
    for (const path of [...leftovers, ...kept]) writeFileSync(path, 'x');
    expect(sweepLeftovers(dir.path).sort()).toEqual([...leftovers].sort());
    for (const path of leftovers) expect(existsSync(path)).toBe(false);
    for (const path of kept) expect(existsSync(path)).toBe(true);
  });

  it('spares fresh leftovers while another live instance shares the directory, not old ones', () => {
    const fresh = temporaryNameFor(join(dir.path, '.global_settings.json'));
    const old = join(dir.path, 'auto-20240101-000000.tar.gz.partial');
    writeFileSync(fresh, 'x');
    writeFileSync(old, 'x');
    utimesSync(old, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(sweepLeftovers(dir.path, { otherInstanceAlive: true })).toEqual([old]);
    expect(existsSync(fresh)).toBe(true);
  });

  it('knows another instance from the scheduler lock: a live pid on this host, or a fresh heartbeat elsewhere', () => {
    const lock = join(dir.path, '.scheduler.lock');
    expect(otherInstanceHoldsLock(lock)).toBe(false);
    const now = new Date().toISOString();
    writeFileSync(lock, JSON.stringify({ pid: process.pid, hostname: hostname(), heartbeat_at: now }));
    expect(otherInstanceHoldsLock(lock)).toBe(false);
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, hostname: hostname(), heartbeat_at: now }));
    expect(otherInstanceHoldsLock(lock)).toBe(true);
    const exited = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    writeFileSync(lock, JSON.stringify({ pid: exited.pid, hostname: hostname(), heartbeat_at: now }));
    expect(otherInstanceHoldsLock(lock)).toBe(false);
    writeFileSync(lock, JSON.stringify({ pid: 1, hostname: 'elsewhere', heartbeat_at: now }));
    expect(otherInstanceHoldsLock(lock)).toBe(true);
    writeFileSync(lock, JSON.stringify({ pid: 1, hostname: 'elsewhere', heartbeat_at: new Date(Date.now() - 120_000).toISOString() }));
    expect(otherInstanceHoldsLock(lock)).toBe(false);
    writeFileSync(lock, 'not json');
    expect(otherInstanceHoldsLock(lock)).toBe(false);
  });
});
