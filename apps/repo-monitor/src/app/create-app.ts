import fastifyCookie from '@fastify/cookie';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { packageVersion, ReadinessService, requestIdFor } from '@shared/config';
import { Logger } from 'nestjs-pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { MonitorConfig } from './config/monitor-config';
import { setupOpenApi } from './openapi';
import { registerBodyParsers } from './webhooks/body-parsers';

/** Largest request body: webhook deliveries over 1 MiB are refused with 413 (repo-monitor-details.md). */
const BODY_LIMIT = 1024 * 1024;

/** Builds the repo-monitor application (not yet listening); `serve` and the e2e tests both use it. */
export async function createMonitorApp(config: MonitorConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    trustProxy: config.http.trustProxy,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
    // Errors of Fastify's router (a URL with a malformed percent-escape, a bad header) in the API's error shape.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      void reply.status(400).header('content-type', 'application/json; charset=utf-8').send({ error_code: 'validation_failed', message: error.message });
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  // POST /webhooks/github gets its body unparsed, to verify its signature over the exact bytes first.
  registerBodyParsers(app, BODY_LIMIT);
  app.useLogger(app.get(Logger));
  await app.register(fastifyCookie);
  // SQLite is one shared connection: every flow takes its turn (see @shared/database).
  serializeSqliteAccess(app.get(DataSource));
  app.enableShutdownHooks();
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalFilters(new AllExceptionsFilter());
  app.getHttpAdapter().getInstance().addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  setupOpenApi(app, config.build.version ?? packageVersion());
  return app;
}

/** Starts listening and flips /readyz to 200 once every module has finished starting. */
export async function listenMonitorApp(app: NestFastifyApplication, config: MonitorConfig): Promise<string> {
  await app.listen(config.http.port, config.http.host);
  app.get(ReadinessService).markReady();
  return app.getUrl();
}
