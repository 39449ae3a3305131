import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { packageVersion } from '@shared/config';
import {
  clientErrorAnswer,
  FieldValidationPipe,
  frameworkErrorAnswer,
  installSecurityHeaders,
  LifecycleServer,
  ReadinessService,
  logLeanRequests,
  refuseDotSegments,
  requestIdFor,
  serveWebApp,
} from '@shared/http-service';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource } from 'typeorm';
import { consoleRequestHook } from './admin/console-request-policy';
import { AppModule } from './app.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { MonitorConfig } from './config/monitor-config';
import { GithubAppSharedSettings } from './settings/github-app-shared-settings';
import { HEALTH_PATHS, setupOpenApi } from './openapi';
import { GITHUB_WEBHOOK_PATH, registerBodyParsers } from './webhooks/body-parsers';
import { WebhookRejectionRecorder } from './webhooks/webhook-rejection-recorder';
import { CONSOLE_ROUTES, SERVICE_PATHS } from './console/console-routes';

/** Largest request body: webhook deliveries over 1 MiB are refused with 413 (repo-monitor-details.md). */
const BODY_LIMIT = 1024 * 1024;

/** repo-monitor's error shape for the answers given before Nest sees a request. */
function monitorErrorBody(status: number, message: string): object {
  return { error_code: status === 404 ? 'not_found' : 'validation_failed', message };
}

/** The listener of repo-monitor: up before the app, 503 `service_unavailable` while starting or stopping. */
export function monitorLifecycleServer(): LifecycleServer {
  return new LifecycleServer({
    healthPaths: HEALTH_PATHS,
    unavailableBody: (phase) => ({
      error_code: 'service_unavailable',
      message: phase === 'starting' ? 'repo-monitor is starting; try again in a few seconds' : 'repo-monitor is shutting down; try again in a few seconds',
    }),
  });
}

export interface MonitorAppOptions {
  /** The built console (dist/apps/repo-monitor/web): served at `/` when it holds an index.html. */
  webRoot?: string;
}

const servingConsole = new WeakSet<NestFastifyApplication>();

/** Whether the app serves the browser console (its build has one). */
export function servesConsole(app: NestFastifyApplication): boolean {
  return servingConsole.has(app);
}

/**
 * Builds the repo-monitor application: the listener is up first (answering 503), then the app is
 * created on it, not yet serving; `serve` and the e2e tests both use it.
 */
export async function createMonitorApp(config: MonitorConfig, lifecycle = monitorLifecycleServer(), options: MonitorAppOptions = {}): Promise<NestFastifyApplication> {
  lifecycle.limit(config.http.limits, config.http.trustProxy);
  if (!lifecycle.listening) await lifecycle.listen(config.http.port, config.http.host);
  try {
    const app = await buildMonitorApp(config, lifecycle);
    // The console posts the GitHub App manifest form to GitHub's web address.
    if (await serveWebApp(app, options.webRoot, CONSOLE_ROUTES, { formActions: [new URL(config.github.webUrl).origin] }, { pageNotFound: { servicePaths: SERVICE_PATHS } })) servingConsole.add(app);
    return app;
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
}

async function buildMonitorApp(config: MonitorConfig, lifecycle: LifecycleServer): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    serverFactory: lifecycle.serverFactory,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.http.trustProxy,
    genReqId: (req: IncomingMessage) => requestIdFor(req),
    requestIdHeader: false,
    // Errors of Fastify's router (a URL with a malformed percent-escape, a bad header) in the API's error shape.
    // A request over the time or header bounds, or unparsable, before routing: in the error shape too.
    clientErrorHandler: clientErrorAnswer(monitorErrorBody),
    frameworkErrors: frameworkErrorAnswer(monitorErrorBody),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  // POST /webhooks/github gets its body unparsed, to verify its signature over the exact bytes first.
  registerBodyParsers(app, BODY_LIMIT);
  app.useLogger(app.get(Logger));
  // Nest keeps every log line of the start in a buffer until app.listen() flushes it, and the service
  // never calls app.listen() (its own listener serves once the app is ready): without this flush every
  // application log line (warnings, errors, where the admin password is) stayed in that buffer,
  // growing for as long as the process ran, and none was written.
  app.flushLogs();
  await app.register(fastifyCookie);
  // SQLite is one shared connection: every flow takes its turn (see @shared/database).
  serializeSqliteAccess(app.get(DataSource));
  app.useGlobalPipes(new FieldValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalFilters(new AllExceptionsFilter());
  const fastify = app.getHttpAdapter().getInstance();
  logLeanRequests(fastify, () => PinoLogger.root, [GITHUB_WEBHOOK_PATH]);
  // Every refused webhook request is kept (bounded, without its body) for the Deliveries page.
  app.get(WebhookRejectionRecorder).listenTo(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  refuseDotSegments(fastify, monitorErrorBody);
  installSecurityHeaders(fastify);
  // Fastify does not close a server it did not listen on itself.
  fastify.addHook('onClose', async () => lifecycle.close());
  // Cross-site and non-JSON writes to the console API are refused before the body is read.
  const githubSettings = app.get(GithubAppSharedSettings);
  fastify.addHook('onRequest', consoleRequestHook(() => githubSettings.publicBaseUrl()));
  setupOpenApi(app, config.build.version ?? packageVersion());
  return app;
}

/** Finishes starting every module, then hands the listener to the app and flips /readyz to 200. */
export async function listenMonitorApp(app: NestFastifyApplication): Promise<string> {
  const lifecycle = LifecycleServer.of(app.getHttpServer());
  if (!lifecycle) throw new Error('the app was not created by createMonitorApp');
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
 * (MONITOR_HTTP_SHUTDOWN_DRAIN) and until requests in flight are answered (at most 20 s), then the
 * app closes its modules and the listener.
 */
export async function shutDownMonitorApp(app: NestFastifyApplication, config: MonitorConfig): Promise<void> {
  app.get(ReadinessService).markNotReady();
  await LifecycleServer.of(app.getHttpServer())?.drain({ delayMs: config.http.shutdownDrainMs, inFlightTimeoutMs: 20_000 });
  await app.close();
}
