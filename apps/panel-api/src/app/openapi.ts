import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export const BEARER_SCHEME = 'bearer';

/** Serves the OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function setupOpenApi(app: INestApplication, version: string): void {
  const document = SwaggerModule.createDocument(
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
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
