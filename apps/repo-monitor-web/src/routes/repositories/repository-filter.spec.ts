import { describe, expect, it } from 'vitest';
import { parseFullName, repositoryFilterFromParams, repositoryFilterToParams, repositoryQuery } from './repository-filter';

describe('repository filter', () => {
  it('reads the URL, dropping what the API would refuse, and writes it back', () => {
    const filter = repositoryFilterFromParams(new URLSearchParams('q=node&source=external&status=archived&page=3'));
    expect(filter).toEqual({
      page: 3,
      q: 'node',
      source: 'external',
      status: 'archived',
    });
    expect(repositoryFilterToParams(filter).toString()).toBe('q=node&source=external&status=archived&page=3');
    expect(repositoryFilterFromParams(new URLSearchParams('source=fork&status=gone&page=0'))).toEqual({ page: 1, q: '', source: '', status: '' });
    expect(
      repositoryFilterToParams({
        page: 1,
        q: '',
        source: '',
        status: '',
      }).toString(),
    ).toBe('');
  });

  it('asks the API only for what is set', () => {
    expect(repositoryQuery(repositoryFilterFromParams(new URLSearchParams('source=installation')))).toEqual({ page: 1, per_page: 25, source: 'installation' });
  });

  it('accepts owner/name or a GitHub URL and refuses anything else', () => {
    expect(parseFullName(' octocat/Hello-World ')).toBe('octocat/Hello-World');
    expect(parseFullName('https://github.com/nodejs/node.git')).toBe('nodejs/node');
    expect(parseFullName('octocat')).toBeNull();
    expect(parseFullName('a/b/c')).toBeNull();
    expect(parseFullName('-bad/name')).toBeNull();
    expect(parseFullName('owner/..')).toBeNull();
  });
});
