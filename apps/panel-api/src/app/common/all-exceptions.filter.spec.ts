import { ArgumentsHost, BadRequestException, ConflictException, HttpException, HttpStatus, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AllExceptionsFilter, codeForStatus, errorBody } from './all-exceptions.filter';
import { AccountNotFound, ERROR_CODES, ERROR_STATUS, NeedsRelogin, PanelError, TaskBusy, ValidationFailed } from './panel-error';
import { InvalidJsonBodyError, RequestBodyLimitError } from './request-limits';

const request = { id: 'req-1', url: '/api/x?y=1', method: 'GET' } as unknown as FastifyRequest;

/** A Fastify error as Fastify throws it (bad JSON, body too large, bad content type). */
function fastifyError(statusCode: number, code: string, message: string): Error {
  return Object.assign(new Error(message), { statusCode, code });
}

describe('AllExceptionsFilter', () => {
  const filter = new AllExceptionsFilter();
  const describeError = (exception: unknown) => filter.describe(exception, request);

  beforeAll(() => {
    // The unexpected errors below are logged on purpose; keep the test output quiet.
    jest.spyOn((filter as unknown as { logger: { error: () => void } }).logger, 'error').mockImplementation(() => undefined);
  });

  it('answers every PanelError with the status of its code, the code and the message', () => {
    for (const code of ERROR_CODES) {
      const status = ERROR_STATUS[code];
      expect(describeError(new PanelError(code, `because ${code}`))).toEqual({ status, body: errorBody(status, `because ${code}`, code) });
    }
  });

  it('keeps the shape {statusCode, error, message, code} for the domain classes', () => {
    expect(describeError(new AccountNotFound('alice'))).toEqual({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Account alice not found', code: 'account_not_found' },
    });
    expect(describeError(new NeedsRelogin('alice', 'it has no stored session')).body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'needs_relogin' });
    expect(describeError(new TaskBusy('daily')).body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Task daily is already running', code: 'task_busy' });
    expect(describeError(new ValidationFailed('since must not be after until')).body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
  });

  it("gives Nest's own exceptions the code of their status", () => {
    // The validation pipe's list of problems becomes one message.
    expect(describeError(new BadRequestException(['name must be a string', 'enabled must be a boolean'])).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'name must be a string; enabled must be a boolean',
      code: 'validation_failed',
    });
    expect(describeError(new UnauthorizedException('Invalid access token')).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect(describeError(new NotFoundException('Cannot GET /api/nope')).body).toMatchObject({ statusCode: 404, code: 'not_found' });
    expect(describeError(new ConflictException('taken')).body).toMatchObject({ statusCode: 409, code: 'conflict' });
    expect(describeError(new HttpException('slow down', HttpStatus.TOO_MANY_REQUESTS)).body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(describeError(new HttpException('no', HttpStatus.METHOD_NOT_ALLOWED))).toEqual({ status: 405, body: errorBody(405, 'no', 'request_refused') });
    expect(describeError(new ServiceUnavailableException('not ready')).body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'not ready', code: 'service_unavailable' });
  });

  it("gives Fastify's errors and the body limits the code of their case", () => {
    expect(describeError(new InvalidJsonBodyError('Request body is not valid JSON')).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Request body is not valid JSON',
      code: 'invalid_json',
    });
    expect(describeError(fastifyError(413, 'FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large')).body).toMatchObject({ statusCode: 413, code: 'payload_too_large' });
    expect(describeError(fastifyError(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type')).body).toMatchObject({ statusCode: 415, code: 'unsupported_media_type' });
    expect(describeError(new RequestBodyLimitError('Request body nests deeper than 4 levels')).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Request body nests deeper than 4 levels',
      code: 'validation_failed',
    });
    expect(describeError(new RequestBodyLimitError('too big', 413)).body).toMatchObject({ statusCode: 413, code: 'payload_too_large' });
  });

  it('answers anything unexpected 500 internal_error with the request id and no internals', () => {
    for (const exception of [new Error('secret path /data/x'), new HttpException('boom', 500), 'a string']) {
      expect(describeError(exception)).toEqual({ status: 500, body: errorBody(500, 'Internal server error (request id req-1)', 'internal_error') });
    }
  });

  it('sends the body as JSON, with Retry-After when the error knows the wait', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      sent: false,
      raw: {},
      header(name: string, value: string) {
        sent.headers[name] = value;
        return reply;
      },
      status(status: number) {
        sent.status = status;
        return reply;
      },
      send(body: unknown) {
        sent.body = body;
        return reply;
      },
    };
    const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) } as unknown as ArgumentsHost;
    filter.catch(new PanelError('flood_wait', 'A wait of 30 seconds is required', 30), host);
    expect(sent).toEqual({
      status: 429,
      headers: { 'Retry-After': '30', 'content-type': 'application/json; charset=utf-8' },
      body: { statusCode: 429, error: 'Too Many Requests', message: 'A wait of 30 seconds is required', code: 'flood_wait' },
    });
  });

  it('has a code for every status', () => {
    expect([400, 401, 403, 404, 409, 410, 413, 415, 429, 418, 500, 502, 503].map(codeForStatus)).toEqual([
      'validation_failed',
      'unauthorized',
      'forbidden',
      'not_found',
      'conflict',
      'gone',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
      'request_refused',
      'internal_error',
      'internal_error',
      'service_unavailable',
    ]);
  });
});
