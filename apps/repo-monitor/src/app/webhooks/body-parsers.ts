import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';

/** The inbound GitHub webhook route; its body is kept as raw bytes until the signature is checked. */
export const GITHUB_WEBHOOK_PATH = '/webhooks/github';

/** Whether the request goes to a route whose body must stay unparsed (the signature covers the bytes). */
function keepsRawBody(request: FastifyRequest): boolean {
  return request.routeOptions.url === GITHUB_WEBHOOK_PATH;
}

/**
 * The JSON and form parsers of the whole application (instead of Nest's defaults, which parse every
 * body before any handler runs). For POST /webhooks/github the body is handed on as the Buffer
 * received, so the receiver verifies X-Hub-Signature-256 before spending time on parsing: an unsigned
 * megabyte of nested arrays costs one HMAC, not a parse. Other routes parse as before (JSON with
 * prototype poisoning refused; forms with repeated keys as arrays). Both keep Fastify's body limit.
 */
export function registerBodyParsers(app: NestFastifyApplication, bodyLimit: number): void {
  const instance = app.getHttpAdapter().getInstance();
  const json = instance.getDefaultJsonParser('error', 'error');
  app.useBodyParser<Server>('application/json', { bodyLimit }, (request, body, done) => {
    if (keepsRawBody(request)) return done(null, body);
    json(request, body.toString('utf8'), done);
  });
  app.useBodyParser<Server>('application/x-www-form-urlencoded', { bodyLimit }, (request, body, done) => {
    if (keepsRawBody(request)) return done(null, body);
    done(null, { ...parseQueryString(body.toString('utf8')) });
  });
}
