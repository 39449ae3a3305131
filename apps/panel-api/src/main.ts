import 'reflect-metadata';
import { join } from 'node:path';
import { ConfigValidationError, processEnvironment, redactSecrets } from '@shared/config';
import { onStopSignals } from '@shared/http-service';
import { createPanelApp, listenPanelApp, shutDownPanelApp } from './app/create-app';
import { loadPanelConfig, panelSecrets, PanelConfig } from './app/config/panel-config';

/** `node main.js restore <archive> [--key-file <path>]`: the checked offline restore (docs/data-and-backups.md). */
async function restore(config: PanelConfig, args: string[]): Promise<void> {
  const keyFlag = args.indexOf('--key-file');
  const keyFile = keyFlag === -1 ? join(config.dataDir, '.backup_key') : args[keyFlag + 1];
  const [archive] = args.filter((arg, index) => !arg.startsWith('--') && (keyFlag === -1 || index !== keyFlag + 1));
  if (!archive || !keyFile) {
    process.stderr.write('usage: node main.js restore <backup.tar.gz> [--key-file <path of the .backup_key of the instance that made it>]\n');
    process.exit(2);
  }
  const { readBackupKey } = await import('./app/backups/backup-key');
  const { restoreBackupArchive } = await import('./app/backups/restore-archive');
  const { DataDirectory } = await import('./app/data-dir/data-directory');
  try {
    const key = readBackupKey(keyFile);
    const { files } = await restoreBackupArchive(archive, config.dataDir, { key, keep: new DataDirectory(config.dataDir).excludedFromBackup });
    process.stdout.write(`restored ${files} files from ${archive} into ${config.dataDir}\n`);
  } catch (error) {
    process.stderr.write(`panel-api restore failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

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
  if (process.argv[2] === 'restore') return restore(config, process.argv.slice(3));
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
