/** The repository a PR-review comment is posted on: the only place its links may point to. */
export interface CommentRepository {
  /** The configured GitHub web URL (`https://github.com`, a GHES address, or the local stand-in). */
  webUrl: string;
  /** owner/name */
  fullName: string;
}

// One pass over the text, so nothing this module writes is looked at again:
//  1. a Markdown link or image, `[text](url "title")`;
//  2. a URL with a scheme, a `www.` address, or mailto:/xmpp: (GitHub links these by itself);
//  3. an e-mail address (GitHub links it as mailto:);
//  4. an @mention or @org/team (GitHub notifies them);
//  5. a character that starts raw HTML, an autolink, a reference link or a definition.
const TOKEN = new RegExp(
  [
    String.raw`(!?)\[([^\[\]\n]{0,500})\]\(\s*<?([^()\s<>]{0,2048})>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`,
    String.raw`((?:[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/|www\.|(?:mailto|xmpp):)[^\s<>"'\x60()\[\]]*)`,
    String.raw`([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)`,
    String.raw`(?<![A-Za-z0-9_])@([A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\/[A-Za-z0-9._-]{1,100})?)`,
    String.raw`([<>\[\]])`,
  ].join('|'),
  'g',
);

const WORD_JOINER = '\u2060';
const ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '[': '\\[', ']': '\\]' };

/**
 * Whether `value` is an absolute link into `repository` on the configured GitHub: same scheme,
 * host and port as the web URL, and a path under /owner/name. Relative links are refused: in a
 * comment they resolve against github.com, to any repository.
 */
export function isRepositoryLink(value: string, repository: CommentRepository): boolean {
  let url: URL;
  let web: URL;
  try {
    url = new URL(value);
    web = new URL(repository.webUrl);
  } catch {
    return false;
  }
  if (url.origin !== web.origin || url.username || url.password) return false;
  const base = web.pathname.replace(/\/+$/, '');
  const path = url.pathname;
  if (!path.toLowerCase().startsWith(`${base}/`.toLowerCase())) return false;
  const [owner, name] = path.slice(base.length + 1).split('/');
  const [wantedOwner, wantedName] = repository.fullName.split('/');
  return Boolean(owner && name && wantedOwner && wantedName) && owner.toLowerCase() === wantedOwner.toLowerCase() && name.toLowerCase() === wantedName.toLowerCase();
}

/** A URL as text that nothing turns back into a link: `https[:]//evil[.]example/x`. */
export function defangLink(value: string): string {
  return value.replace(/:/g, '[:]').replace(/\./g, '[.]');
}

/**
 * Model output made safe to post in a GitHub comment. The model read a pull request that anyone
 * may open, so its text is steerable by outsiders: it stays on one line (no headings, quotes or
 * fake sections of our own), raw HTML is shown as text, links are kept only when they point into
 * the repository itself (any other link, image, e-mail address or reference is shown defanged, not
 * clickable), and @mentions notify nobody.
 */
export function neutraliseModelMarkdown(text: string, repository: CommentRepository): string {
  const line = text
    .replace(/[\r\n\u2028\u2029\u0085]+/g, ' ')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim();
  const body = line.replace(TOKEN, (match, bang: string | undefined, label: string | undefined, target: string | undefined, url: string | undefined, email: string | undefined, mention: string | undefined, markup: string | undefined) => {
    if (label !== undefined && target !== undefined) {
      const shownLabel = neutraliseModelMarkdown(label, repository);
      if (isRepositoryLink(target, repository)) return `${bang ?? ''}[${shownLabel}](${target})`;
      return `${shownLabel} (link removed: ${defangLink(target)})`;
    }
    if (url !== undefined) return isRepositoryLink(url, repository) ? url : defangLink(url);
    if (email !== undefined) return defangLink(email).replace('@', `@${WORD_JOINER}`);
    if (mention !== undefined) return `@${WORD_JOINER}${mention}`;
    if (markup !== undefined) return ESCAPES[markup] ?? markup;
    return match;
  });
  // A line that starts like a block (heading, quote, list, rule, table) would start one inside ours.
  return body.replace(/^([#>+\-*=|_~])/, '\\$1').replace(/^(\d{1,9})([.)])/, '$1\\$2');
}
