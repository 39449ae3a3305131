import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource } from 'typeorm';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AccessTokenService } from './auth/access-token.service';
import { ClusterService } from './cluster/cluster.service';
import { installOwnerForwarding } from './cluster/owner-forwarding';
import { AccountLoginService } from './accounts/account-login.service';
import { SignTasksService } from './sign-tasks/sign-tasks.service';
import { installTokenBeforeBody } from './auth/token-before-body';
import { ProviderOverride } from './common/provider-overrides';
import { AllExceptionsFilter, errorBody } from './common/all-exceptions.filter';
import { DEFAULT_BODY_LIMITS, installBodyLimits } from './common/request-limits';
import { packageVersion } from '@shared/config';
import { clientErrorAnswer, FieldValidationPipe, frameworkErrorAnswer, installSecurityHeaders, LifecycleServer, ReadinessService, refuseDotSegments, requestIdFor } from '@shared/http-service';
import { PanelConfig } from './config/panel-config';
import { HEALTH_PATHS, setupOpenApi } from './openapi';
import { serveWebUi } from './web-ui/serve-web-ui';

export interface PanelAppOptions {
  /** Replace port providers (e2e tests: `{ provide: TELEGRAM_GATEWAY, useValue: simulator }`). */
  overrides?: readonly ProviderOverride[];
  /** Folder of the built web app (index.html and assets/) to serve at `/`; none = API only. */
  webRoot?: string;
  /** The listener to use (a test that watches the start from a client listens on it first); made here otherwise. */
  lifecycle?: LifecycleServer;
}

/** The listener of panel-api: up before the app, 503 in the API's error shape while starting or stopping. */
export function panelLifecycleServer(): LifecycleServer {
  return new LifecycleServer({
    healthPaths: HEALTH_PATHS,
    unavailableBody: (phase) =>
      errorBody(503, phase === 'starting' ? 'panel-api is starting; try again in a few seconds' : 'panel-api is shutting down; try again in a few seconds'),
  });
}

/**
 * Builds the panel-api application: the listener is up first (answering 503), then the app is
 * created on it, not yet serving; main.ts and the e2e tests both use it.
 */
export async function createPanelApp(config: PanelConfig, options: PanelAppOptions = {}): Promise<NestFastifyApplication> {
  const lifecycle = options.lifecycle ?? panelLifecycleServer();
  lifecycle.limit(config.http.limits, config.http.trustProxy);
  if (!lifecycle.listening) await lifecycle.listen(config.http.port, config.http.host);
  try {
    return await buildPanelApp(config, options, lifecycle);
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
}

async function buildPanelApp(config: PanelConfig, options: PanelAppOptions, lifecycle: LifecycleServer): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    serverFactory: lifecycle.serverFactory,
    // Per route (common/request-limits.ts); this is the default for routes that say nothing.
    bodyLimit: DEFAULT_BODY_LIMITS.maxBytes,
    trustProxy: config.http.trustProxy,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
    // Errors of Fastify's router (a URL whose percent-escapes decode to no valid UTF-8) in the API's error shape.
    // A request over the time or header bounds, or unparsable, before routing: in the error shape too.
    clientErrorHandler: clientErrorAnswer((status, message) => errorBody(status, message)),
    frameworkErrors: frameworkErrorAnswer((status, message) => errorBody(status, message)),
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
  // Nest keeps every log line of the start in a buffer until app.listen() flushes it, and the service
  // never calls app.listen() (its own listener serves once the app is ready): without this flush every
  // application log line (warnings, errors, where the admin password is) stayed in that buffer,
  // growing for as long as the process ran, and none was written.
  app.flushLogs();
  app.useGlobalPipes(
    new FieldValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  refuseDotSegments(fastify, (status, message) => errorBody(status, message));
  // Replicas on PostgreSQL: requests about another replica's account are answered by that replica.
  const tasks = app.get(SignTasksService);
  const logins = app.get(AccountLoginService);
  installOwnerForwarding(fastify, app.get(ClusterService), {
    taskAccounts: async (taskName, onlyAccount) => {
      await tasks.fresh();
      const task = tasks.get(taskName);
      if (!task) return undefined;
      const accounts = tasks.accountsOf(task);
      if (onlyAccount === undefined) return accounts;
      return accounts.includes(onlyAccount) ? [onlyAccount] : undefined;
    },
    knowsQrLogin: (loginId) => logins.knowsQrLogin(loginId),
  }, app.get(AccessTokenService));
  installSecurityHeaders(fastify);
  // Fastify does not close a server it did not listen on itself.
  fastify.addHook('onClose', async () => lifecycle.close());
  setupOpenApi(app, config.version.appVersion ?? packageVersion());
  await serveWebUi(app, options.webRoot);
  return app;
}

/** Finishes starting every module, then hands the listener to the app and flips /readyz to 200. */
export async function listenPanelApp(app: NestFastifyApplication): Promise<string> {
  const lifecycle = LifecycleServer.of(app.getHttpServer());
  if (!lifecycle) throw new Error('the app was not created by createPanelApp');
  try {
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (error) {
    // A start that fails part way (a module's init threw) still closes what the modules opened, the
    // database pool first, so the process can exit instead of hanging on an open connection.
    await app.close().catch(() => undefined);
    await lifecycle.close();
    throw error;
  }
  lifecycle.serve();
  app.get(ReadinessService).markReady();
  return lifecycle.url();
}

/**
 * A graceful stop (SIGTERM): /readyz and every new request answer 503 at once, for the drain time
 * (APP_SHUTDOWN_DRAIN_SECONDS) and until requests in flight are answered (at most 20 s), then the
 * app closes its modules and the listener.
 */
export async function shutDownPanelApp(app: NestFastifyApplication, config: PanelConfig): Promise<void> {
  app.get(ReadinessService).markNotReady();
  await LifecycleServer.of(app.getHttpServer())?.drain({ delayMs: config.http.shutdownDrainSeconds * 1000, inFlightTimeoutMs: 20_000 });
  await app.close();
}
