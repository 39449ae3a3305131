import 'reflect-metadata';
import { ConfigValidationError, processEnvironment, redactSecrets } from '@shared/config';
import { createPanelApp, listenPanelApp } from './app/create-app';
import { loadPanelConfig, panelSecrets, PanelConfig } from './app/config/panel-config';

async function main(): Promise<void> {
  let config: PanelConfig;
  try {
    config = loadPanelConfig(processEnvironment());
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`error_code=validation_failed message=${JSON.stringify(error.message)}\n`);
      process.exit(1);
    }
    throw error;
  }
  try {
    const app = await createPanelApp(config);
    const url = await listenPanelApp(app, config);
    process.stdout.write(`panel-api listening on ${url} (Swagger UI at /docs)\n`);
  } catch (error) {
    const message = redactSecrets(error instanceof Error ? error.message : String(error), panelSecrets(config));
    process.stderr.write(`panel-api failed to start: ${message}\n`);
    process.exit(1);
  }
}

void main();
