import { capDiff, parseReviewResult, REVIEW_DIFF_CAP, reviewNeedsAlert } from './review-result';

describe('capDiff', () => {
  it('keeps a diff within the cap as it is', () => {
    expect(capDiff('+a\n-b\n')).toEqual({ text: '+a\n-b\n', truncated: false, originalChars: 6 });
  });

  it('cuts a long diff at 12,000 characters at most, at a line end, and marks it truncated', () => {
    const diff = '+ a fairly ordinary line of code\n'.repeat(1000);
    const capped = capDiff(diff);
    expect(REVIEW_DIFF_CAP).toBe(12_000);
    expect(capped.truncated).toBe(true);
    expect(capped.originalChars).toBe(diff.length);
    expect(capped.text.length).toBeLessThanOrEqual(12_000);
    expect(capped.text.length).toBeGreaterThan(11_000);
    expect(diff.startsWith(capped.text)).toBe(true);
    expect(diff[capped.text.length]).toBe('\n');
  });

  it('cuts hard when there is no line end near the cap', () => {
    expect(capDiff('x'.repeat(20_000)).text).toHaveLength(12_000);
  });
});

describe('parseReviewResult', () => {
  const valid = { summary: 'ok', score: 72.4, merge_risk: 'Medium', security_risks: [], breaking_risks: ['renames an export'], suggestions: ['add docs'], missing_tests: [] };

  it('accepts the schema, fenced or bare, normalising score and merge risk', () => {
    expect(parseReviewResult(JSON.stringify(valid))).toEqual({ ...valid, score: 72, merge_risk: 'medium' });
    expect(parseReviewResult(`Here you go:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``).score).toBe(72);
  });

  it('treats missing lists as empty and flattens object findings to text', () => {
    const result = parseReviewResult(JSON.stringify({ summary: 's', score: 90, merge_risk: 'low', security_risks: [{ file: 'a.ts', issue: 'eval' }] }));
    expect(result.breaking_risks).toEqual([]);
    expect(result.security_risks).toEqual(['{"file":"a.ts","issue":"eval"}']);
  });

  it('refuses answers that do not fit', () => {
    expect(() => parseReviewResult('Looks good to me')).toThrow(/not a JSON object/);
    expect(() => parseReviewResult(JSON.stringify({ ...valid, score: 140 }))).toThrow(/score/);
    expect(() => parseReviewResult(JSON.stringify({ ...valid, merge_risk: 'catastrophic' }))).toThrow(/merge_risk/);
    expect(() => parseReviewResult(JSON.stringify({ ...valid, summary: '' }))).toThrow(/summary/);
    expect(() => parseReviewResult('{"summary": "cut off", "score": ')).toThrow();
  });
});

describe('reviewNeedsAlert', () => {
  it('alerts on any security risk or a score under 60', () => {
    expect(reviewNeedsAlert({ score: 95, security_risks: ['token in log'] })).toBe(true);
    expect(reviewNeedsAlert({ score: 59, security_risks: [] })).toBe(true);
    expect(reviewNeedsAlert({ score: 60, security_risks: [] })).toBe(false);
  });
});
