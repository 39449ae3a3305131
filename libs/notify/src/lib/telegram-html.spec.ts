import { parseTelegramHtml } from '@shared/testing';
import { escapeTelegramHtml, splitTelegramHtml, truncateTelegramHtml } from './telegram-html';

function expectValidHtml(part: string): string {
  const parsed = parseTelegramHtml(part);
  if (!parsed.ok) throw new Error(`${parsed.description} in ${JSON.stringify(part)}`);
  return parsed.text;
}

describe('escapeTelegramHtml', () => {
  it('escapes the characters HTML parse mode reserves', () => {
    expect(escapeTelegramHtml('a < b && c > "d"')).toBe('a &lt; b &amp;&amp; c &gt; &quot;d&quot;');
  });
});

describe('splitTelegramHtml', () => {
  it('leaves a short message alone', () => {
    expect(splitTelegramHtml('<b>hi</b>', 4096)).toEqual(['<b>hi</b>']);
  });

  it('closes open tags at a cut and reopens them in the next part', () => {
    const html = `<b>bold <i>${'x'.repeat(60)}</i> tail</b>`;
    const parts = splitTelegramHtml(html, 40);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(40);
      expectValidHtml(part);
    }
    expect(parts[0]).toMatch(/^<b>bold <i>x+<\/i><\/b>$/);
    expect(parts[1]).toMatch(/^<b><i>x+/);
    expect(parts.map((part) => expectValidHtml(part)).join('')).toBe(expectValidHtml(html));
  });

  it('never cuts through an entity or a link tag, and keeps the href when reopening', () => {
    const html = `<a href="https://github.com/o/r/issues/1">${'&amp;'.repeat(30)}</a>`;
    const parts = splitTelegramHtml(html, 80);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(80);
      expect(part.startsWith('<a href="https://github.com/o/r/issues/1">')).toBe(true);
      expect(part.endsWith('</a>')).toBe(true);
      expect(part).not.toMatch(/&(?!amp;)/);
    }
    expect(parts.map((part) => expectValidHtml(part)).join('')).toBe('&'.repeat(30));
  });

  it('prefers to cut after a newline and does not split surrogate pairs', () => {
    const line = `${'😀'.repeat(10)} line\n`;
    const parts = splitTelegramHtml(line.repeat(20), 100);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(100);
      expect(part.endsWith('\n')).toBe(true);
      expect(part).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(parts.join('')).toBe(line.repeat(20));
  });

  it('splits a 10,000-character message into parts the Bot API accepts', () => {
    const html = Array.from({ length: 200 }, (_, index) => `<b>#${index}</b> <code>${'a'.repeat(30)}</code> &lt;done&gt;`).join('\n');
    const parts = splitTelegramHtml(html, 4096);
    expect(parts.length).toBe(Math.ceil(html.length / 4096));
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4096);
      expectValidHtml(part);
    }
    expect(parts.join('')).toBe(html);
    expect(parts.slice(0, -1).every((part) => part.endsWith('\n'))).toBe(true);
  });
});

describe('truncateTelegramHtml', () => {
  it('cuts to the limit with an ellipsis and closes what is open', () => {
    const html = `<b>Issue</b> <a href="https://x.test">${'word '.repeat(2000)}</a>`;
    const cut = truncateTelegramHtml(html, 4000);
    expect(cut.length).toBeLessThanOrEqual(4000);
    expect(cut.length).toBeGreaterThan(3900);
    expect(cut.endsWith('…</a>')).toBe(true);
    expectValidHtml(cut);
  });

  it('returns text under the limit unchanged', () => {
    expect(truncateTelegramHtml('<i>short</i>', 4000)).toBe('<i>short</i>');
  });
});
