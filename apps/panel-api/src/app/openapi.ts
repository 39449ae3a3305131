import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const BEARER_SCHEME = 'bearer';

/**
 * The OpenAPI document of this service, built from the controllers' decorators. The same document
 * is served at /openapi.json and committed as apps/panel-api/openapi.json (`npm run openapi`).
 */
export function createOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('panel-api')
      .setDescription(
        'Runs Telegram user accounts for their owner: sign-in tasks, keyword listeners, devices, backups. ' +
          'Log in with POST /api/auth/login, then press "Authorize" and paste the access_token.',
      )
      .setVersion(version)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
      .build(),
  );
}

/** Serves the OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function setupOpenApi(app: INestApplication, version: string): void {
  SwaggerModule.setup('docs', app, createOpenApiDocument(app, version), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
