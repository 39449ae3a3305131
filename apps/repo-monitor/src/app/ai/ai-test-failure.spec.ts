import { APIConnectionError, APIError } from 'openai';
import { classifyAiError } from './ai-client';
import { classifyAiTestFailure } from './ai-test-failure';

const MARKER = 'UPSTREAM-MARKER-7f3a';

describe('classifyAiTestFailure', () => {
  it('names each failure by kind with the upstream status, in our own words only', () => {
    const cases: Array<[Error, number, string, number | null]> = [
      [APIError.generate(401, { error: { message: `bad key ${MARKER}` } }, `401 ${MARKER}`, new Headers()), 30_000, 'unauthorized', 401],
      [APIError.generate(403, { error: { message: MARKER } }, MARKER, new Headers()), 30_000, 'unauthorized', 403],
      [APIError.generate(429, { error: { message: MARKER } }, MARKER, new Headers()), 30_000, 'rate_limited', 429],
      [APIError.generate(500, { error: { message: MARKER } }, MARKER, new Headers()), 30_000, 'bad_response', 500],
      [APIError.generate(404, { error: { message: MARKER } }, MARKER, new Headers()), 30_000, 'bad_response', 404],
      [new APIConnectionError({ message: `connect ECONNREFUSED ${MARKER}` }), 30_000, 'unreachable', null],
    ];
    for (const [error, timeoutMs, kind, status] of cases) {
      const failure = classifyAiError(error, 5, timeoutMs, false);
      const answer = classifyAiTestFailure(failure.code, failure.upstreamStatus, timeoutMs);
      expect({ kind: answer.kind, status: answer.upstream_status }).toEqual({ kind, status });
      expect(answer.message).not.toContain(MARKER);
    }
  });

  it('classifies our deadline and unreadable answers', () => {
    expect(classifyAiTestFailure('timeout', undefined, 2000)).toEqual({ kind: 'timeout', upstream_status: null, message: 'no answer within 2000 ms' });
    expect(classifyAiTestFailure('malformed_response', undefined, 2000).kind).toBe('bad_response');
    expect(classifyAiTestFailure('empty_response', undefined, 2000).kind).toBe('bad_response');
  });
});
