import { LinearRegex, linearRegexProblem } from './linear-regex';

describe('LinearRegex (RE2)', () => {
  it('matches with capture groups and case folding', () => {
    expect(LinearRegex.compile('code:\\s*(\\w+)( x)?', { ignoreCase: true }).exec('CODE: abc')).toEqual(['CODE: abc', 'abc', undefined]);
    expect(LinearRegex.compile('abc', { ignoreCase: false }).exec('ABC')).toBeNull();
    expect(LinearRegex.compile('\\u7EA2\\u{5305}', { ignoreCase: false }).exec('发红包')).toEqual(['红包']);
    expect(LinearRegex.compile('\\\\u0041', { ignoreCase: false }).exec('\\u0041')).toEqual(['\\u0041']);
  });

  it('finishes (a+)+$ on a long non-matching text in linear time', () => {
    // CPU time, not wall time: a starved machine stretches the one, not the other.
    const started = process.cpuUsage();
    expect(LinearRegex.compile('(a+)+$', { ignoreCase: false }).exec(`${'a'.repeat(100_000)}!`)).toBeNull();
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1_000);
  });

  it.each([
    ['(?=a)b', /invalid or unsupported Perl syntax: `\(\?=`/],
    ['(?<!a)b', /invalid named capture|unsupported/],
    ['(a)\\1', /invalid escape sequence: `\\1`/],
    ['(unclosed', /missing closing \)/],
  ])('refuses %s and says why', (pattern, reason) => {
    const problem = linearRegexProblem(pattern, true);
    expect(problem).toMatch(reason);
    expect(problem).toContain('linear time');
    expect(problem).not.toContain('(?i)');
  });
});
