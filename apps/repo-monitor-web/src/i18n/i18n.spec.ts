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

describe('page strings loaded with their page', () => {
  it('has every page but the bundled login on demand, and adds both languages under the folder key', async () => {
    const { hasPageStrings, i18n, loadPageStrings } = await import('./setup');
    expect(hasPageStrings('login')).toBe(false);
    expect(hasPageStrings('no-such-page')).toBe(false);
    expect(hasPageStrings('agent-access')).toBe(true);
    expect(i18n.exists('agentAccess.title')).toBe(false);
    await loadPageStrings('agent-access');
    expect(i18n.t('agentAccess.title')).toBe('Agent access');
    expect(i18n.getResource('zh-CN', 'app', 'agentAccess.title')).toBe('智能体访问');
    expect(i18n.t('login.title')).toBe('Sign in');
  });
});
