import { OutsideLinkPolicy } from './outside-link';

describe('OutsideLinkPolicy', () => {
  const github = new OutsideLinkPolicy('https://github.com');
  const plainHttpGhes = new OutsideLinkPolicy('http://ghes.internal:8080/');

  it('keeps https links, as the browser reads them', () => {
    expect(github.accept('https://github.com/acme/api/issues/7')).toBe('https://github.com/acme/api/issues/7');
    expect(github.accept('https://github.com/acme/api/releases/tag/v1.0.0')).toBe('https://github.com/acme/api/releases/tag/v1.0.0');
    expect(github.accept('HTTPS://GitHub.com/acme/api')).toBe('https://github.com/acme/api');
    expect(github.accept(' https://github.com/a b')).toBe('https://github.com/a%20b');
  });

  it('drops every other scheme, however it is spelled', () => {
    for (const value of [
      'javascript:alert(document.cookie)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      '\u0000javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://github.com/x',
      '//evil.example/x',
      '/acme/api',
      'not a url',
    ]) {
      expect(github.accept(value)).toBeUndefined();
    }
  });

  it('drops http unless the configured GitHub web URL is http, and then only for its own origin', () => {
    expect(github.accept('http://github.com/acme/api')).toBeUndefined();
    expect(plainHttpGhes.accept('http://ghes.internal:8080/acme/api/pull/1')).toBe('http://ghes.internal:8080/acme/api/pull/1');
    expect(plainHttpGhes.accept('http://ghes.internal:8081/acme/api')).toBeUndefined();
    expect(plainHttpGhes.accept('http://evil.example/acme/api')).toBeUndefined();
    expect(plainHttpGhes.accept('https://ghes.internal/acme/api')).toBe('https://ghes.internal/acme/api');
  });

  it('drops links with credentials, links over 512 characters, and values that are not strings', () => {
    expect(github.accept('https://github.com@evil.example/acme')).toBeUndefined();
    expect(github.accept(`https://github.com/${'a'.repeat(600)}`)).toBeUndefined();
    expect(github.accept(undefined)).toBeUndefined();
    expect(github.accept(null)).toBeUndefined();
    expect(github.accept({ href: 'https://github.com' })).toBeUndefined();
    expect(github.accept('')).toBeUndefined();
  });

  it('builds fallback pages on the configured GitHub', () => {
    expect(github.repositoryPage('acme/api')).toBe('https://github.com/acme/api');
    expect(plainHttpGhes.pullRequestPage('acme/api', 3)).toBe('http://ghes.internal:8080/acme/api/pull/3');
    expect(github.repositoryPage('acme/a?b#c')).toBe('https://github.com/acme/a%3Fb%23c');
  });
});
