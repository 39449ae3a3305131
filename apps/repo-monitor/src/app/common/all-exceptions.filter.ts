import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { fastifyErrorStatus, FieldProblem, httpErrorFields, httpErrorMessage, noteAnsweredError } from '@shared/http-service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MonitorError, MonitorErrorBody } from './monitor-error';

const CODE_FOR_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  409: 'conflict',
  413: 'validation_failed',
  415: 'validation_failed',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Where @fastify/static serves the Swagger UI files (see openapi.ts). */
const STATIC_PREFIX = '/docs/';

/**
 * An error of the static file server (a path outside its root, a NUL byte, a bad range...): plain
 * errors with a 4xx `statusCode` and no Fastify code. The client learns only that there is no such file.
 */
function isStaticFileError(exception: unknown, request: FastifyRequest): boolean {
  if (!(exception instanceof Error) || exception instanceof HttpException || !request.url.startsWith(STATIC_PREFIX)) return false;
  const status = Number((exception as { statusCode?: unknown }).statusCode ?? (exception as { status?: unknown }).status);
  return status >= 400 && status < 500;
}

/**
 * Turns every error into `{error_code, message, details?}`. 5xx are logged once with the request
 * id, which the body carries as details.request_id; their messages never expose internals.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    const { status, body } = this.describe(exception, request);
    noteAnsweredError(reply.raw, { code: body.error_code, message: body.message });
    if (exception instanceof MonitorError && exception.headers) {
      for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  describe(exception: unknown, request: FastifyRequest): { status: number; body: MonitorErrorBody } {
    if (exception instanceof MonitorError) {
      const status = exception.getStatus();
      const body: MonitorErrorBody = { error_code: exception.errorCode, message: exception.message };
      if (exception.details) body.details = withFieldList(exception.errorCode, exception.message, exception.details);
      // A MonitorError is thrown on purpose (not configured, upstream down): the request's log line
      // says so at warn; no stack trace.
      if (status >= 500) return { status, body: withRequestId(body, request) };
      return { status, body };
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const body: MonitorErrorBody = { error_code: CODE_FOR_STATUS[status] ?? 'validation_failed', message: httpErrorMessage(response, exception.message) };
      const fields = httpErrorFields(response);
      if (fields) body.details = { fields };
      return { status, body };
    }
    if (isStaticFileError(exception, request)) {
      return { status: 404, body: { error_code: 'not_found', message: 'no such file' } };
    }
    const clientStatus = fastifyErrorStatus(exception);
    if (clientStatus !== undefined && clientStatus < 500) {
      const raw = (exception as Error).message;
      const message = clientStatus === 400 && /JSON/i.test(raw) ? 'request body is not valid JSON' : raw;
      return { status: clientStatus, body: { error_code: CODE_FOR_STATUS[clientStatus] ?? 'validation_failed', message } };
    }
    const status = exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    const code = status === 503 ? 'service_unavailable' : 'internal_error';
    return this.serverError(exception, request, status, { error_code: code, message: status === 503 ? 'service unavailable' : 'internal error' });
  }

  private serverError(
    exception: unknown,
    request: FastifyRequest,
    status: number,
    body: MonitorErrorBody,
  ): { status: number; body: MonitorErrorBody } {
    const requestId = String(request.id ?? '');
    this.logger.error({ err: exception, requestId, method: request.method, url: request.url.split('?')[0] }, 'request failed');
    return { status, body: withRequestId(body, request) };
  }
}

function withRequestId(body: MonitorErrorBody, request: FastifyRequest): MonitorErrorBody {
  return { ...body, details: { ...(body.details ?? {}), request_id: String(request.id ?? '') } };
}

/**
 * A validation_failed about one field (`details.field`, with `rule`, `min`, `max` when the thrower
 * knows them) also gets the `fields` list a DTO refusal has, so a form reads both the same way.
 * Without a rule it is `invalid`, and the message is the sentence to show. A conflict about one
 * field that names its rule (a name that is taken) gets the list too.
 */
function withFieldList(code: string, message: string, details: Record<string, unknown>): Record<string, unknown> {
  const aboutField = code === 'validation_failed' || (code === 'conflict' && typeof details['rule'] === 'string');
  if (!aboutField || typeof details['field'] !== 'string' || details['fields'] !== undefined) return details;
  const { field, rule, min, max, ...rest } = details;
  const entry: FieldProblem = { field: field as string, rule: typeof rule === 'string' ? rule : 'invalid', message };
  if (typeof min === 'number') entry.min = min;
  if (typeof max === 'number') entry.max = max;
  return { ...rest, field, fields: [entry] };
}
