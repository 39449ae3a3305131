import { fastifyErrorStatus, httpErrorMessage } from './http-errors';

describe('http error helpers', () => {
  it('takes the message of a string, an object or a list of validation errors', () => {
    expect(httpErrorMessage('plain', 'fallback')).toBe('plain');
    expect(httpErrorMessage({ message: 'one' }, 'fallback')).toBe('one');
    expect(httpErrorMessage({ message: ['a must be set', 'b is too long'] }, 'fallback')).toBe('a must be set; b is too long');
    expect(httpErrorMessage({ other: 1 }, 'fallback')).toBe('fallback');
  });

  it('reads the status of Fastify errors only', () => {
    expect(fastifyErrorStatus({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' })).toBe(400);
    expect(fastifyErrorStatus({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toBe(413);
    expect(fastifyErrorStatus({ statusCode: 200, code: 'X' })).toBeUndefined();
    expect(fastifyErrorStatus(new Error('plain'))).toBeUndefined();
  });
});
