import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { fastifyErrorStatus, httpErrorMessage, noteAnsweredError } from '@shared/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ApiErrorBody } from './api-error';

export function errorBody(status: number, message: string): ApiErrorBody {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message };
}

/**
 * Turns every error into `{statusCode, error, message}`. Client errors are answered as they are;
 * anything else is logged once with the request id and answered without internals.
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
    noteAnsweredError(reply.raw, { message: body.message });
    if (status === HttpStatus.TOO_MANY_REQUESTS && exception instanceof HttpException) {
      const retryAfter = (exception.getResponse() as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  describe(exception: unknown, request: FastifyRequest): { status: number; body: ApiErrorBody } {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) return { status, body: errorBody(status, httpErrorMessage(exception.getResponse(), exception.message)) };
    }
    const clientStatus = fastifyErrorStatus(exception);
    if (clientStatus !== undefined && clientStatus < 500) {
      const raw = (exception as Error).message;
      const message = clientStatus === 400 && /JSON/i.test(raw) ? 'Request body is not valid JSON' : raw;
      return { status: clientStatus, body: errorBody(clientStatus, message) };
    }
    const status = exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    const requestId = String(request.id ?? '');
    const path = request.url.split('?')[0];
    // A deliberate upstream failure (Telegram unreachable, timeout) is expected, not a bug: the
    // request's own log line reports it at warn. Only the unexpected gets a stack trace.
    if (!(exception instanceof HttpException && status !== 500)) {
      this.logger.error({ err: exception, requestId, method: request.method, url: path }, `Unhandled error on ${request.method} ${path}`);
    }
    const message =
      exception instanceof HttpException && status !== 500
        ? httpErrorMessage(exception.getResponse(), exception.message)
        : `Internal server error (request id ${requestId})`;
    return { status, body: errorBody(status, message) };
  }
}
