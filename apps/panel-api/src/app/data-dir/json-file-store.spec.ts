import { tempDir } from '@shared/testing';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptDataFileError, createFileExclusive, readJsonObjectFile, writeJsonFileAtomic } from './json-file-store';

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
});
