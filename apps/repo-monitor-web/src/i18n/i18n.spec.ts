import { keyPaths } from '@shared/web-ui';
import { describe, expect, it } from 'vitest';
import { en, pageKey, zh } from './resources';

describe('translations', () => {
  it('English and Simplified Chinese have exactly the same keys, pages included', () => {
    expect(keyPaths(zh)).toEqual(keyPaths(en));
    // The pages' own files are collected (a glob that matched nothing would make this test empty).
    expect(Object.keys(en)).toEqual(expect.arrayContaining(['common', 'nav', 'login', 'setup']));
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

  it('names a page by its folder in camelCase', () => {
    expect(pageKey('../routes/work-items/i18n.ts')).toBe('workItems');
    expect(pageKey('../routes/login/i18n.ts')).toBe('login');
  });
});
