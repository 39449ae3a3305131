import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { fastifyErrorStatus, FieldProblem, httpErrorFields, httpErrorMessage, noteAnsweredError } from '@shared/http-service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ApiErrorBody } from './api-error';
import { ERROR_STATUS, ErrorCode, PanelError } from './panel-error';
import { InvalidJsonBodyError } from './request-limits';

/** The code of an error that is not a PanelError (Nest's own, the validation pipe's, Fastify's), by its status. */
const CODE_FOR_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

export function codeForStatus(status: number): ErrorCode {
  return CODE_FOR_STATUS[status] ?? (status < 500 ? 'request_refused' : 'internal_error');
}

export function errorBody(status: number, message: string, code: ErrorCode = codeForStatus(status), fields?: readonly FieldProblem[]): ApiErrorBody {
  const body: ApiErrorBody = { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, code };
  if (fields?.length) body.fields = [...fields];
  return body;
}

/**
 * Turns every error into `{statusCode, error, message, code, fields?}`. PanelErrors carry their code, whose
 * status comes from ERROR_STATUS (domain errors meet HTTP here and nowhere else); other
 * client errors get the code of their status. Anything unexpected is logged once with the request id
 * and answered 500 `internal_error` without internals.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body } = this.describe(exception, request);
    if (reply.sent) return;
    noteAnsweredError(reply.raw, { code: body.code, message: body.message });
    if (exception instanceof PanelError && exception.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(exception.retryAfterSeconds));
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  describe(exception: unknown, request: FastifyRequest): { status: number; body: ApiErrorBody } {
    // A PanelError, or an HttpException other than 500, is thrown on purpose, 5xx included (Telegram
    // unreachable, WebDAV failed): the request's own log line reports it at warn, with no stack trace.
    if (exception instanceof PanelError) {
      const status = ERROR_STATUS[exception.code];
      return { status, body: errorBody(status, exception.message, exception.code, exception.fields) };
    }
    if (exception instanceof InvalidJsonBodyError) return { status: 400, body: errorBody(400, exception.message, 'invalid_json') };
    const clientStatus = fastifyErrorStatus(exception);
    if (clientStatus !== undefined && clientStatus < 500) return { status: clientStatus, body: errorBody(clientStatus, (exception as Error).message) };
    const status = exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    if (exception instanceof HttpException && status !== 500) {
      const response = exception.getResponse();
      return { status, body: errorBody(status, httpErrorMessage(response, exception.message), codeForStatus(status), httpErrorFields(response)) };
    }
    const requestId = String(request.id ?? '');
    const path = request.url.split('?')[0];
    this.logger.error({ err: exception, requestId, method: request.method, url: path }, `Unhandled error on ${request.method} ${path}`);
    return { status, body: errorBody(status, `Internal server error (request id ${requestId})`, 'internal_error') };
  }
}
