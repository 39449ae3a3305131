import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The service's JSON error body for a status and a message (each service has its own shape). */
export type ErrorBodyFor = (status: number, message: string) => object;

/** A `.` or `..` path segment, spelled out or percent-encoded (`%2e`), ending at `/`, `?` or the end. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|\?|$)/i;

function sendError(reply: FastifyReply, status: number, body: object): void {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/**
 * Answers 404 in the service's error shape, before routing, authentication or any file lookup, for
 * a path with `.`/`..` segments (`/docs/../main.js`). Browsers and proxies resolve those before
 * sending; a raw one is a probe, and static-file plugins treat it as an error, not as a missing file.
 */
export function refuseDotSegments(fastify: FastifyInstance, errorBody: ErrorBodyFor): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (DOT_SEGMENT.test(request.raw.url ?? '/')) return sendError(reply, 404, errorBody(404, 'Not found'));
    done();
  });
}

/**
 * For Fastify's `frameworkErrors` option: errors of its router (a URL with a percent-escape that
 * decodes to no valid UTF-8, such as `/assets/%c0%ae%c0%ae/x`) answered 400 in the service's error
 * shape instead of Fastify's own body. The URL is not echoed back.
 */
export function frameworkErrorAnswer(errorBody: ErrorBodyFor): (error: Error, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, _request, reply) => {
    const code = (error as { code?: string }).code;
    const message = code === 'FST_ERR_BAD_URL' ? 'The request URL is malformed (an invalid percent-escape)' : 'The request could not be read';
    sendError(reply, 400, errorBody(400, message));
  };
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive; the connection is closed' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large' },
};

/**
 * For Fastify's `clientErrorHandler` option: a connection whose request broke a bound before it
 * reached the app (too slow: 408, headers too large: 431, unparsable: 400) gets the answer in the
 * service's error shape, then is closed.
 */
export function clientErrorAnswer(errorBody: ErrorBodyFor): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request could not be read' };
    if (socket.writable) {
      const body = JSON.stringify(errorBody(status, message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
