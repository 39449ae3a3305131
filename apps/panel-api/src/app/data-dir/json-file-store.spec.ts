import { tempDir } from '@shared/testing';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptDataFileError, createFileExclusive, readJsonObjectFile, replaceFilesAtomically, writeJsonFileAtomic } from './json-file-store';

describe('json file store', () => {
  let dir: ReturnType<typeof tempDir>;

  beforeEach(() => {
    dir = tempDir('json-store-');
  });

  afterEach(() => dir.remove());

  it('writes through a temporary file with mode 0600 and leaves no temporary file behind', () => {
    const path = join(dir.path, '.settings.json');
    writeJsonFileAtomic(path, { a: 1 });
    writeJsonFileAtomic(path, { a: 2 });
    expect(readJsonObjectFile(path)).toEqual({ a: 2 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir.path)).toEqual(['.settings.json']);
  });

  it('reads a missing file as undefined and reports a corrupt one with its path', () => {
    expect(readJsonObjectFile(join(dir.path, 'missing.json'))).toBeUndefined();
    const broken = join(dir.path, 'broken.json');
    writeFileSync(broken, '{"a": ');
    expect(() => readJsonObjectFile(broken)).toThrow(CorruptDataFileError);
    expect(() => readJsonObjectFile(broken)).toThrow(`Data file ${broken} is corrupt: not valid JSON`);
    writeFileSync(broken, 'null');
    expect(() => readJsonObjectFile(broken)).toThrow('expected a JSON object');
    expect(readFileSync(broken, 'utf8')).toBe('null');
  });

  it('creates a file exclusively: a second writer neither overwrites it nor fails', () => {
    const path = join(dir.path, '.secret');
    expect(createFileExclusive(path, 'first')).toBe(true);
    expect(createFileExclusive(path, 'second')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir.path)).toEqual(['.secret']);
  });

  it('replaces several files together, and none when one temporary file cannot be written', () => {
    const first = join(dir.path, 'first.json');
    const second = join(dir.path, 'second.json');
    writeFileSync(first, 'old first');
    replaceFilesAtomically([
      { path: first, data: 'new first' },
      { path: second, data: 'new second' },
    ]);
    expect([readFileSync(first, 'utf8'), readFileSync(second, 'utf8')]).toEqual(['new first', 'new second']);
    expect(statSync(second).mode & 0o777).toBe(0o600);

    expect(() =>
      replaceFilesAtomically([
        { path: first, data: 'newer first' },
        { path: join(dir.path, 'missing-folder', 'third.json'), data: 'third' },
      ]),
    ).toThrow();
    expect(readFileSync(first, 'utf8')).toBe('new first');
    expect(readdirSync(dir.path).sort()).toEqual(['first.json', 'second.json']);
  });

  it('puts replaced files back, and removes created ones, when a later rename fails', () => {
    const first = join(dir.path, 'first.json');
    const created = join(dir.path, 'created.json');
    const third = join(dir.path, 'third.json');
    writeFileSync(first, 'old first');
    writeFileSync(third, 'old third');
    const renames: string[] = [];
    const failOnThird = (from: string, to: string) => {
      if (to === third) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      renames.push(to);
      renameSync(from, to);
    };
    expect(() =>
      replaceFilesAtomically(
        [
          { path: first, data: 'new first' },
          { path: created, data: 'created' },
          { path: third, data: 'new third' },
        ],
        { rename: failOnThird },
      ),
    ).toThrow('EIO');
    expect(renames).toEqual([first, created]);
    expect(readFileSync(first, 'utf8')).toBe('old first');
    expect(readFileSync(third, 'utf8')).toBe('old third');
    expect(readdirSync(dir.path).sort()).toEqual(['first.json', 'third.json']);
  });

  it('refuses before writing anything when a target cannot be read (a folder in its place)', () => {
    const first = join(dir.path, 'first.json');
    writeFileSync(first, 'old first');
    mkdirSync(join(dir.path, 'blocked.json'));
    expect(() =>
      replaceFilesAtomically([
        { path: first, data: 'new first' },
        { path: join(dir.path, 'blocked.json'), data: 'blocked' },
      ]),
    ).toThrow();
    expect(readFileSync(first, 'utf8')).toBe('old first');
    expect(readdirSync(dir.path).sort()).toEqual(['blocked.json', 'first.json']);
  });
});
