import { combineVerdicts, namedWaitMs, VerdictMatcher } from './verdict';

describe('VerdictMatcher', () => {
  const matcher = new VerdictMatcher({
    success: [{ mode: 'contains', pattern: '签到成功' }],
    already_done: [{ mode: 'contains', pattern: '已经签到' }, { mode: 'regex', pattern: '今日已签|already (signed|checked) in' }],
    failure: [{ mode: 'regex', pattern: '失败|error' }],
  });

  it('tries already-done, then failure, then success patterns, ignoring case', () => {
    expect(matcher.classify('签到成功！+10')?.verdict).toBe('success');
    expect(matcher.classify('你已经签到成功过了')?.verdict).toBe('already_done');
    expect(matcher.classify('You have ALREADY CHECKED IN today')?.verdict).toBe('already_done');
    expect(matcher.classify('签到失败')?.verdict).toBe('failed');
    expect(matcher.classify('hello')).toBeUndefined();
    expect(new VerdictMatcher({}).declared).toBe(false);
    expect(matcher.declared).toBe(true);
  });

  it('runs regex patterns in linear time on hostile text', () => {
    const hostile = new VerdictMatcher({ failure: [{ mode: 'regex', pattern: '(a+)+$' }] });
    // CPU time, not wall time: a starved machine stretches the one, not the other.
    const started = process.cpuUsage();
    expect(hostile.classify(`${'a'.repeat(50_000)}!`)).toBeUndefined();
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(2_000);
  });
});

describe('combineVerdicts', () => {
  it('fails on any failure, then unconfirmed, then success over already done', () => {
    expect(combineVerdicts([])).toBeNull();
    expect(combineVerdicts(['success', 'failed'])).toBe('failed');
    expect(combineVerdicts(['already_done', 'unconfirmed'])).toBe('unconfirmed');
    expect(combineVerdicts(['already_done', 'success'])).toBe('success');
    expect(combineVerdicts(['already_done'])).toBe('already_done');
  });
});

describe('namedWaitMs', () => {
  const noon = new Date('2026-11-27T12:00:00Z');
  it('reads minutes, hours and tomorrow in Chinese and English', () => {
    expect(namedWaitMs('请 37 分钟后再试', noon, 'UTC')).toBe(37 * 60_000);
    expect(namedWaitMs('Please try again in 2 hours', noon, 'UTC')).toBe(2 * 3_600_000);
    expect(namedWaitMs('1小时30分钟后再来', noon, 'UTC')).toBe(90 * 60_000);
    expect(namedWaitMs('明天再来', noon, 'UTC')).toBe(12 * 3_600_000 + 5 * 60_000);
    expect(namedWaitMs('明天再来', noon, 'Asia/Shanghai')).toBe(4 * 3_600_000 + 5 * 60_000);
  });

  it('names no wait for answers without one, or beyond the bound', () => {
    expect(namedWaitMs('签到成功，获得 5 积分', noon, 'UTC')).toBeUndefined();
    expect(namedWaitMs('try again in 900 hours', noon, 'UTC')).toBeUndefined();
  });
});
