import { keyPaths } from '@shared/web-ui';
import { describe, expect, it } from 'vitest';
import { en, PAGE_STRINGS, zh } from './all';
import { en as shellEn } from './en';

describe('translations', () => {
  it('English and Simplified Chinese have exactly the same keys', () => {
    expect(keyPaths(zh)).toEqual(keyPaths(en));
    for (const [name, page] of Object.entries(PAGE_STRINGS)) expect([name, keyPaths(page.zh)]).toEqual([name, keyPaths(page.en)]);
  });

  it('each page has its own section, and no page string is also in the bundled ones', () => {
    for (const [name, page] of Object.entries(PAGE_STRINGS)) {
      expect(Object.keys(page.en)).toEqual([name]);
      expect(Object.keys(shellEn)).not.toContain(name);
    }
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
