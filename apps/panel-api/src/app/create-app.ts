import { ValidationPipe } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource } from 'typeorm';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AccessTokenService } from './auth/access-token.service';
import { installTokenBeforeBody } from './auth/token-before-body';
import { ProviderOverride } from './common/provider-overrides';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { DEFAULT_BODY_LIMITS, installBodyLimits } from './common/request-limits';
import { packageVersion, ReadinessService, requestIdFor } from '@shared/config';
import { PanelConfig } from './config/panel-config';
import { setupOpenApi } from './openapi';
import { serveWebUi } from './web-ui/serve-web-ui';

export interface PanelAppOptions {
  /** Replace port providers (e2e tests: `{ provide: TELEGRAM_GATEWAY, useValue: simulator }`). */
  overrides?: readonly ProviderOverride[];
  /** Folder of the built web app (index.html and assets/) to serve at `/`; none = API only. */
  webRoot?: string;
}

/** Builds the panel-api application (not yet listening); main.ts and the e2e tests both use it. */
export async function createPanelApp(config: PanelConfig, options: PanelAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // Per route (common/request-limits.ts); this is the default for routes that say nothing.
    bodyLimit: DEFAULT_BODY_LIMITS.maxBytes,
    trustProxy: config.http.trustProxy,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
  });
  // Body size, nesting and list lengths are bounded before any parsing, per route.
  installBodyLimits(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, { overrides: options.overrides }), adapter, {
    bufferLogs: true,
    abortOnError: false,
    bodyParser: false,
  });
  installTokenBeforeBody(adapter.getInstance(), app.get(AccessTokenService));
  // SQLite is one shared connection: every flow takes its turn (see @shared/database).
  serializeSqliteAccess(app.get(DataSource));
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  setupOpenApi(app, config.version.appVersion ?? packageVersion());
  await serveWebUi(app, options.webRoot);
  return app;
}

/** Starts listening and flips /readyz to 200 once every module has finished starting. */
export async function listenPanelApp(app: NestFastifyApplication, config: PanelConfig): Promise<string> {
  await app.listen(config.http.port, config.http.host);
  app.get(ReadinessService).markReady();
  return app.getUrl();
}
