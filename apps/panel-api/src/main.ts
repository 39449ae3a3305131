import 'reflect-metadata';
import { join } from 'node:path';
import { ConfigValidationError, processEnvironment, redactSecrets } from '@shared/config';
import { parseMasterKey } from '@shared/crypto';
import { onStopSignals } from '@shared/http-service';
import { createPanelApp, listenPanelApp, shutDownPanelApp } from './app/create-app';
import { loadPanelConfig, panelSecrets, PanelConfig } from './app/config/panel-config';

/**
 * The backup key a restore checks the archive with: `--key-file` when given; with PostgreSQL the key
 * every replica shares (in the database, opened with APP_ENCRYPTION_KEY); otherwise the data
 * directory's `.backup_key`.
 */
async function restoreKey(config: PanelConfig, keyFile: string | undefined): Promise<string> {
  const { readBackupKey } = await import('./app/backups/backup-key');
  if (keyFile || config.database.driver !== 'postgres') return readBackupKey(keyFile ?? join(config.dataDir, '.backup_key'));
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('./database/data-source-options');
  const { BACKUP_KEY_SECRET, openSharedSecret } = await import('./app/shared-secrets/shared-secret.store');
  if (!config.auth.encryptionKey) throw new Error('APP_ENCRYPTION_KEY is required to read the shared backup key from PostgreSQL');
  const dataSource = new DataSource({ ...dataSourceOptions(config.database), migrationsRun: false });
  await dataSource.initialize();
  try {
    const rows = (await dataSource.query('SELECT "sealed" FROM "shared_secrets" WHERE "name" = $1', [BACKUP_KEY_SECRET])) as Array<{ sealed: string }>;
    if (!rows[0]) throw new Error('the database holds no backup key yet (no replica has made a backup); pass --key-file <path of the .backup_key that made the archive>');
    return openSharedSecret(parseMasterKey(config.auth.encryptionKey), BACKUP_KEY_SECRET, rows[0].sealed);
  } finally {
    await dataSource.destroy();
  }
}

/** `node main.js restore <archive> [--key-file <path>]`: the checked offline restore (docs/data-and-backups.md). */
async function restore(config: PanelConfig, args: string[]): Promise<void> {
  const keyFlag = args.indexOf('--key-file');
  const keyFile = keyFlag === -1 ? undefined : args[keyFlag + 1];
  const [archive] = args.filter((arg, index) => !arg.startsWith('--') && (keyFlag === -1 || index !== keyFlag + 1));
  if (!archive || (keyFlag !== -1 && !keyFile)) {
    process.stderr.write('usage: node main.js restore <backup.tar.gz> [--key-file <path of the .backup_key of the instance that made it>]\n');
    process.exit(2);
  }
  const { restoreBackupArchive } = await import('./app/backups/restore-archive');
  const { DataDirectory } = await import('./app/data-dir/data-directory');
  try {
    const key = await restoreKey(config, keyFile);
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
