import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const SESSION_COOKIE = 'monitor_session';
export const COOKIE_SCHEME = 'session';
export const CSRF_SCHEME = 'csrf';
export const AGENT_SCHEME = 'agent';
export const METRICS_SCHEME = 'metrics';

/**
 * The OpenAPI document of this service, built from the controllers' decorators. The same document
 * is served at /openapi.json and committed as apps/repo-monitor/openapi.json (`npm run openapi`).
 */
export function createOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('repo-monitor')
      .setDescription(
        'Watches GitHub repositories through a GitHub App and sends notifications. The console API uses the ' +
          'session cookie from POST /api/v1/auth/login plus the X-CSRF-Token header on writes; agents use a ' +
          'read-only bearer token from POST /oauth/token.',
      )
      .setVersion(version)
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, COOKIE_SCHEME)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' }, CSRF_SCHEME)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, AGENT_SCHEME)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'MONITOR_METRICS_TOKEN' }, METRICS_SCHEME)
      .build(),
  );
}

/** Serves the OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function setupOpenApi(app: INestApplication, version: string): void {
  SwaggerModule.setup('docs', app, createOpenApiDocument(app, version), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true, withCredentials: true },
  });
}
