import { RequestMethod } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { Params } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoInstance } from 'pino';
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

/** What an error filter answered, so the request's one log line can say it without a stack trace. */
export interface AnsweredError {
  /** The service's error code, when its error shape has one (`webhook_not_configured`). */
  code?: string;
  message: string;
}

const answeredErrors = new WeakMap<ServerResponse, AnsweredError>();

/** Called by the error filters for every error they answer; the request log line carries it. */
export function noteAnsweredError(res: ServerResponse, error: AnsweredError): void {
  answeredErrors.set(res, error);
}

/** What the error filter noted for this response, if anything (read by hooks that record refusals). */
export function answeredError(res: ServerResponse): AnsweredError | undefined {
  return answeredErrors.get(res);
}

/** Nest's start-up listing (every module and route, ~250 lines): kept for LOG_LEVEL=debug. */
const START_UP_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);
const INFO = 30;

/**
 * The level of a request's log line. A 4xx is the client's doing and an expected 5xx (502, 503, 504:
 * an upstream down, a service not configured yet) is the operator's to read: neither is a crash.
 * Only a 500, an error nobody anticipated, is logged as an error (its stack comes from the filter).
 */
export function requestLogLevel(statusCode: number): 'info' | 'warn' | 'error' {
  if (statusCode === 500) return 'error';
  if (statusCode > 500) return 'warn';
  return 'info';
}

function requestLine(req: IncomingMessage, res: ServerResponse): string {
  const line = `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`;
  const answered = answeredErrors.get(res);
  if (!answered) return line;
  return `${line} ${answered.code ? `${answered.code}: ` : ''}${answered.message}`;
}

/** A route whose request line logLeanRequests writes instead of pino-http (path as Nest routes it, no leading slash). */
export interface LeanRoute {
  path: string;
  method: RequestMethod;
}

/**
 * nestjs-pino parameters shared by both services: one line per request with its request id, secrets
 * redacted by path, health probes not logged, Nest's start-up listing at debug, JSON by default and
 * a single-line text form for terminals. `leanRoutes` are left to logLeanRequests.
 */
export function loggerParams(log: { level: string; format: 'json' | 'text' }, leanRoutes: readonly LeanRoute[] = []): Params {
  const options: HttpLoggerOptions = {
    level: log.level,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[REDACTED]' },
    genReqId: (req, res) => requestIdFor(req, res),
    // Query strings may carry the SSE token; log the path only.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] }),
    },
    customLogLevel: (_req, res) => requestLogLevel(res.statusCode),
    customSuccessMessage: (req, res) => requestLine(req, res),
    customErrorMessage: (req, res) => requestLine(req, res),
    // pino-http invents an Error ("failed with status code 503") for every 5xx; its stack shows only
    // pino-http itself. The filter has already logged a real unexpected error with its own stack.
    customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => {
      const { err: _invented, ...rest } = value;
      return rest;
    },
    hooks: {
      logMethod(args, method, level) {
        const first = args[0] as unknown;
        const context = typeof first === 'object' && first !== null ? (first as { context?: unknown }).context : undefined;
        if (level === INFO && typeof context === 'string' && START_UP_CHATTER.has(context)) {
          this.debug(...(args as [object, string]));
          return;
        }
        method.apply(this, args);
      },
    },
  };
  // Text output for people at a terminal; JSON (the default) for log collectors.
  return {
    pinoHttp: log.format === 'text' ? [options, pretty({ singleLine: true, sync: true })] : options,
    // Probes every few seconds would drown the log; they still get a request id from Fastify.
    exclude: [...['health', 'healthz', 'readyz'].map((path) => ({ path, method: RequestMethod.GET })), ...leanRoutes],
  };
}

/**
 * The request line of a hot route left out of pino-http (see loggerParams' `leanRoutes`), written
 * from Fastify's onResponse hook with pino-http's level, message and fields. pino-http gives every
 * request a child logger, its request serialized and redacted, whether or not anything is logged;
 * here a request whose line's level is off costs one comparison. `urls` are Fastify route URLs;
 * `logger` answers the logger once there is one (nestjs-pino creates its root when the app starts).
 */
export function logLeanRequests(instance: FastifyInstance, logger: () => PinoInstance | undefined, urls: readonly string[]): void {
  const lean = new Set(urls);
  instance.addHook('onResponse', (request, reply, done) => {
    const log = lean.has(request.routeOptions.url ?? '') ? logger() : undefined;
    if (log) {
      const level = requestLogLevel(reply.statusCode);
      if (log.isLevelEnabled(level)) {
        const req = { id: request.id, method: request.method, url: request.url.split('?')[0] };
        log[level]({ req, res: reply.raw, responseTime: Math.round(reply.elapsedTime) }, requestLine(request.raw, reply.raw));
      }
    }
    done();
  });
}
