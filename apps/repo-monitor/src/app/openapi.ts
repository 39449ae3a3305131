import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { addErrorResponse, collectRouteFacts, completeOpenApiDocument, FIELD_PROBLEMS_SCHEMA } from '@shared/http-service';
import { IS_PUBLIC_ROUTE } from './common/public.decorator';

export const SESSION_COOKIE = 'monitor_session';
export const COOKIE_SCHEME = 'session';
export const CSRF_SCHEME = 'csrf';
export const AGENT_SCHEME = 'agent';
export const METRICS_SCHEME = 'metrics';
/** Paths the listener answers `{"status": …}` on while the app does not serve (create-app.ts). */
export const HEALTH_PATHS = ['/healthz', '/readyz'];

/** The one error body of repo-monitor (see common/all-exceptions.filter.ts). */
const ERROR_SCHEMA = {
  name: 'MonitorErrorBody',
  schema: {
    type: 'object' as const,
    description: 'Every error of the API (the OAuth token endpoint answers RFC 6749 errors instead)',
    required: ['error_code', 'message'],
    properties: {
      error_code: { type: 'string' as const, description: 'Stable code, e.g. validation_failed, unauthorized, not_found', example: 'not_found' },
      message: { type: 'string' as const, description: 'What went wrong, for a person' },
      details: {
        type: 'object' as const,
        additionalProperties: true,
        description: 'Extra facts: the field at fault, the fields of a validation_failed (`fields`), or request_id on a 5xx',
        properties: { fields: FIELD_PROBLEMS_SCHEMA },
      },
    },
  },
};

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The OpenAPI document of this service, built from the controllers' decorators and completed from
 * what the code says (see completeOpenApiDocument). The same document is served at /openapi.json
 * and committed as apps/repo-monitor/openapi.json (`npm run openapi`).
 */
export function createOpenApiDocument(app: INestApplication, version: string): { document: OpenAPIObject; problems: string[] } {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('repo-monitor')
      .setDescription(
        'Watches GitHub repositories through a GitHub App and sends notifications. The console API uses the ' +
          'session cookie from POST /api/v1/auth/login plus the X-CSRF-Token header on writes; agents use a ' +
          'read-only bearer token from POST /oauth/token.',
      )
      .setVersion(version)
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, COOKIE_SCHEME)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' }, CSRF_SCHEME)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, AGENT_SCHEME)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'MONITOR_METRICS_TOKEN' }, METRICS_SCHEME)
      .build(),
  );
  return completeOpenApiDocument(generated, {
    facts: collectRouteFacts(app, IS_PUBLIC_ROUTE),
    errorSchema: ERROR_SCHEMA,
    unavailable: { description: 'service_unavailable: the service is starting or shutting down; try again after Retry-After', healthPaths: HEALTH_PATHS },
    descriptions: {
      unauthorized: 'unauthorized: no live session cookie (or agent token where one is accepted)',
      badRequest: 'validation_failed: the request is not valid; the message says what is wrong',
      payloadTooLarge: 'validation_failed: the request body is larger than the service accepts',
    },
    adjustOperation: (operation, method, _path, facts) => {
      // The guard (admin/auth.guard.ts) lets a write through only with the session cookie AND a
      // matching X-CSRF-Token; agent tokens are read-only. Nest lists each scheme as an alternative.
      if (facts.isPublic) return;
      if (WRITE_METHODS.has(method)) {
        operation.security = [{ [COOKIE_SCHEME]: [], [CSRF_SCHEME]: [] }];
        addErrorResponse(operation, 403, 'csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only');
      } else {
        operation.security = (operation.security ?? []).filter((requirement) => !(CSRF_SCHEME in requirement));
      }
    },
  });
}

/** Serves the OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function setupOpenApi(app: INestApplication, version: string): void {
  // Built on the first request for it, not at every start: scanning every controller's metadata is
  // about half of the CPU a start takes, and most starts never serve the document.
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app, version).document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true, withCredentials: true },
  });
}
