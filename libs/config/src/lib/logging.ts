import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options as HttpLoggerOptions } from 'pino-http';
import pretty from 'pino-pretty';

/** Paths whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.query.token',
  'res.headers["set-cookie"]',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.access_token',
  '*.token',
  '*.secret',
  '*.api_key',
  '*.bot_token',
  '*.webdav_password',
  '*.session_string',
  '*.totp_code',
  '*.private_key',
  '*.client_secret',
  '*.webhook_secret',
  '*.csrf_token',
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type RequestWithId = IncomingMessage & { id?: string | number | object };

/**
 * The request id: the incoming X-Request-Id when it is sane, otherwise a fresh UUID. Fastify calls
 * this first and the id is kept on the raw request, so pino-http and the error filter share it.
 */
export function requestIdFor(req: RequestWithId, res?: ServerResponse): string {
  if (typeof req.id === 'string') return req.id;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  if (res && !res.headersSent) res.setHeader('x-request-id', id);
  return id;
}

/**
 * nestjs-pino parameters shared by both services: one request id per request, secrets redacted by
 * path, health probes not logged, JSON by default and a single-line text form for terminals.
 */
export function loggerParams(log: { level: string; format: 'json' | 'text' }): Params {
  const options: HttpLoggerOptions = {
    level: log.level,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[REDACTED]' },
    genReqId: (req, res) => requestIdFor(req, res),
    // Query strings may carry the SSE token; log the path only.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] }),
    },
  };
  // Text output for people at a terminal; JSON (the default) for log collectors.
  return {
    pinoHttp: log.format === 'text' ? [options, pretty({ singleLine: true, sync: true })] : options,
    // Probes every few seconds would drown the log; they still get a request id from Fastify.
    exclude: ['health', 'healthz', 'readyz'].map((path) => ({ path, method: RequestMethod.GET })),
  };
}
