import { keyPaths } from '@shared/web-ui';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zh } from './zh';

describe('translations', () => {
  it('English and Simplified Chinese have exactly the same keys', () => {
    expect(keyPaths(zh)).toEqual(keyPaths(en));
  });

  it('no string is left empty', () => {
    const empty = (resource: unknown, path = ''): string[] =>
      typeof resource === 'string'
        ? resource.trim()
          ? []
          : [path]
        : Object.entries(resource as Record<string, unknown>).flatMap(([key, value]) => empty(value, path ? `${path}.${key}` : key));
    expect(empty(en)).toEqual([]);
    expect(empty(zh)).toEqual([]);
  });
});
