import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { collectRouteFacts, completeOpenApiDocument, FIELD_PROBLEMS_SCHEMA } from '@shared/http-service';
import { ERROR_CODES } from './common/panel-error';
import { IS_PUBLIC_ROUTE } from './common/public.decorator';

export const BEARER_SCHEME = 'bearer';
export const METRICS_SCHEME = 'metrics';
/** Paths the listener answers `{"status": …}` on while the app does not serve (create-app.ts). */
export const HEALTH_PATHS = ['/health', '/healthz', '/readyz'];

/** The one error body of panel-api (see common/all-exceptions.filter.ts). */
const ERROR_SCHEMA = {
  name: 'ApiErrorBody',
  schema: {
    type: 'object' as const,
    description: 'Every error of panel-api',
    required: ['statusCode', 'error', 'message', 'code'],
    properties: {
      statusCode: { type: 'integer' as const, description: 'The HTTP status again', example: 404 },
      error: { type: 'string' as const, description: 'The status text', example: 'Not Found' },
      message: { type: 'string' as const, description: 'What went wrong, for a person', example: 'Task daily not found' },
      code: {
        type: 'string' as const,
        enum: ERROR_CODES,
        description: 'What went wrong, for a program: stable across versions and languages (docs/panel-api-errors.md)',
        example: 'task_not_found',
      },
      fields: FIELD_PROBLEMS_SCHEMA,
    },
  },
};

/**
 * The OpenAPI document of this service, built from the controllers' decorators and completed from
 * what the code says (see completeOpenApiDocument). The same document is served at /openapi.json
 * and committed as apps/panel-api/openapi.json (`npm run openapi`).
 */
export function createOpenApiDocument(app: INestApplication, version: string): { document: OpenAPIObject; problems: string[] } {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('panel-api')
      .setDescription(
        'Runs Telegram user accounts for their owner: sign-in tasks, keyword listeners, devices, backups. ' +
          'Log in with POST /api/auth/login, then press "Authorize" and paste the access_token.',
      )
      .setVersion(version)
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'APP_METRICS_TOKEN' }, METRICS_SCHEME)
      .build(),
  );
  return completeOpenApiDocument(generated, {
    facts: collectRouteFacts(app, IS_PUBLIC_ROUTE),
    errorSchema: ERROR_SCHEMA,
    unavailable: { description: 'The service is starting or shutting down; try again after Retry-After', healthPaths: HEALTH_PATHS },
    descriptions: {
      unauthorized: 'Missing, invalid or expired access token',
      badRequest: 'The request is not valid; the message says what is wrong',
      payloadTooLarge: 'The request body is larger than the service accepts',
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
    swaggerOptions: { persistAuthorization: true },
  });
}
