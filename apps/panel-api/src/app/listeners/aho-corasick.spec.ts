import { AhoCorasick, AhoCorasickMatch } from './aho-corasick';

/** Every occurrence by brute force, ordered like the automaton reports them (end, then longest first). */
function naiveAll(patterns: string[], text: string): AhoCorasickMatch[] {
  const out: Array<AhoCorasickMatch & { end: number; length: number }> = [];
  const firstIndex = new Map<string, number>();
  patterns.forEach((p, i) => {
    if (p && !firstIndex.has(p)) firstIndex.set(p, i);
  });
  for (const [pattern, index] of firstIndex) {
    for (let start = text.indexOf(pattern); start !== -1; start = text.indexOf(pattern, start + 1)) {
      out.push({ pattern: index, start, end: start + pattern.length - 1, length: pattern.length });
    }
  }
  out.sort((a, b) => a.end - b.end || b.length - a.length);
  return out.map(({ pattern, start }) => ({ pattern, start }));
}

/** A small deterministic generator so a failure can be reproduced. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('AhoCorasick', () => {
  it.each([{}, { maxDfaEntries: 0 }])('finds overlapping patterns, including ones inside others (he, she, his, hers) %j', (options) => {
    const matcher = new AhoCorasick(['he', 'she', 'his', 'hers'], options);
    const found = matcher.findAll('ushers').map((m) => `${matcher.pattern(m.pattern)}@${m.start}`);
    expect(found).toEqual(['she@1', 'he@2', 'hers@2']);
  });

  it('reports the earliest-ending match first, and the longer pattern on a tie', () => {
    const matcher = new AhoCorasick(['abcd', 'bc', 'c']);
    expect(matcher.findFirst('xxabcd')).toEqual({ pattern: 1, start: 3 });
    const tie = new AhoCorasick(['c', 'abc']);
    expect(tie.findFirst('abc')).toEqual({ pattern: 1, start: 0 });
  });

  it('follows failure links across a partial match (abab in aabab)', () => {
    const matcher = new AhoCorasick(['abab', 'bab']);
    expect(matcher.findAll('aababab').map((m) => [matcher.pattern(m.pattern), m.start])).toEqual([
      ['abab', 1],
      ['bab', 2],
      ['abab', 3],
      ['bab', 4],
    ]);
  });

  it('handles non-ASCII text, surrogate pairs and CJK keywords', () => {
    const matcher = new AhoCorasick(['红包', '🎁', 'Привет']);
    expect(matcher.findAll('抢红包啦🎁 привет Привет').map((m) => matcher.pattern(m.pattern))).toEqual(['红包', '🎁', 'Привет']);
  });

  it('ignores empty patterns and reports the first index of a duplicate', () => {
    const matcher = new AhoCorasick(['', 'a', 'a']);
    expect(matcher.findAll('aa')).toEqual([
      { pattern: 1, start: 0 },
      { pattern: 1, start: 1 },
    ]);
    expect(new AhoCorasick([]).findFirst('anything')).toBeUndefined();
    expect(new AhoCorasick(['']).matches('anything')).toBe(false);
  });

  it('lists distinct patterns in order of first occurrence and stops once all are seen', () => {
    const matcher = new AhoCorasick(['gift', 'free', 'code']);
    expect(matcher.distinctPatterns('free code, free gift, code')).toEqual([1, 2, 0]);
    expect(matcher.distinctPatterns('only free things')).toEqual([1]);
  });

  it('agrees with a brute-force search on random patterns and texts', () => {
    const random = generator(42);
    const alphabet = 'abcab€中';
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let round = 0; round < 300; round++) {
      const patterns = Array.from({ length: 1 + Math.floor(random() * 12) }, () => word(5));
      const text = word(60);
      // Both layouts: the dense DFA (default) and the sparse trie with failure links.
      for (const matcher of [new AhoCorasick(patterns), new AhoCorasick(patterns, { maxDfaEntries: 0 })]) {
        expect(matcher.findAll(text)).toEqual(naiveAll(patterns, text));
        expect(matcher.findFirst(text)).toEqual(naiveAll(patterns, text)[0]);
      }
    }
  });
});
