import { tempDir } from '@shared/testing';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entriesToImport, moveAsideImported } from './imported-files';

describe('setting imported files aside on a data directory shared by replicas', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('panel-imported-files-');
  });
  afterEach(() => dir.remove());

  it('renames the file, and answers false when another replica moved it first', () => {
    const file = join(dir.path, 'device_keepalive.json');
    writeFileSync(file, '{}');
    expect(moveAsideImported(file, `${file}.imported-1`)).toBe(true);
    expect(existsSync(`${file}.imported-1`)).toBe(true);
    expect(moveAsideImported(file, `${file}.imported-2`)).toBe(false);
    expect(existsSync(`${file}.imported-2`)).toBe(false);
  });

  it('still fails on any other error (a folder moved into itself)', () => {
    mkdirSync(join(dir.path, 'folder'));
    expect(() => moveAsideImported(join(dir.path, 'folder'), join(dir.path, 'folder', 'inside'))).toThrow();
  });

  it('lists a folder to import, or nothing when it is gone', () => {
    mkdirSync(join(dir.path, 'history', 'daily'), { recursive: true });
    expect(entriesToImport(join(dir.path, 'history')).map((entry) => entry.name)).toEqual(['daily']);
    expect(entriesToImport(join(dir.path, 'gone'))).toEqual([]);
  });
});
