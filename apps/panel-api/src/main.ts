import 'reflect-metadata';
import { join } from 'node:path';
import { ConfigValidationError, processEnvironment, redactSecrets } from '@shared/config';
import { onStopSignals } from '@shared/http-service';
import { createPanelApp, listenPanelApp, shutDownPanelApp } from './app/create-app';
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
    // The build copies the web app next to main.js (dist/apps/panel-api/web).
    const app = await createPanelApp(config, { webRoot: join(__dirname, 'web') });
    const url = await listenPanelApp(app);
    process.stdout.write(`panel-api listening on ${url} (web app at /, Swagger UI at /docs)\n`);
    onStopSignals('panel-api', () => shutDownPanelApp(app, config));
  } catch (error) {
    const message = redactSecrets(error instanceof Error ? error.message : String(error), panelSecrets(config));
    process.stderr.write(`panel-api failed to start: ${message}\n`);
    process.exit(1);
  }
}

void main();
