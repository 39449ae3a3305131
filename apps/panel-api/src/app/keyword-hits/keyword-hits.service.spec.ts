import { postgresIndexedPart, trigramsOf } from './keyword-hits.service';

describe('postgresIndexedPart', () => {
  it('asks the index for the four characters whose two trigrams both hold a digit or a non-ASCII letter', () => {
    expect(postgresIndexedPart('keyword7 ')).toBe('rd7 ');
    expect(postgresIndexedPart('keyword49 ')).toBe('rd49');
    expect(postgresIndexedPart('比特币空投')).toBe('比特币空');
    expect(postgresIndexedPart('Chat 交易群')).toBe('t 交易');
  });

  it('keeps the whole query when no such piece exists (plain words, punctuation pg_trgm does not index, short text)', () => {
    expect(postgresIndexedPart('bravo del')).toBe('bravo del');
    expect(postgresIndexedPart('50%_x')).toBe('50%_x');
    expect(postgresIndexedPart('back\\sl7')).toBe('back\\sl7');
    expect(postgresIndexedPart('ab7')).toBe('ab7');
  });

  it('is always a substring of the query, so a hit holding the query holds it too', () => {
    for (const q of ['keyword7 ', '领取红包奖励', 'a1b2c3', 'x 9 y', '红包', 'quote"d 42']) expect(q).toContain(postgresIndexedPart(q));
  });
});

describe('trigramsOf', () => {
  it('lists the distinct trigrams as FTS5 strings, ASCII folded, quotes doubled', () => {
    expect(trigramsOf('AbcAbc')).toEqual(['"abc"', '"bca"', '"cab"']);
    expect(trigramsOf('a"bc')).toEqual(['"a""b"', '"""bc"']);
    expect(trigramsOf('红包')).toEqual([]);
  });
});
