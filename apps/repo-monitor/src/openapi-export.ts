// Writes this service's OpenAPI document to the file named by the first argument. Run by
// tools/scripts/openapi.mjs (`npm run openapi`); builds the application against a throwaway SQLite
// file without listening or starting any module, so it needs neither network nor a database server.
import 'reflect-metadata';
import { packageVersion } from '@shared/config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMonitorConfig } from './app/config/monitor-config';
import { createMonitorApp } from './app/create-app';
import { createOpenApiDocument } from './app/openapi';

async function exportOpenApi(outputFile: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'monitor-openapi-'));
  try {
    const config = loadMonitorConfig({
      env: {
        MONITOR_HTTP_ADDR: '127.0.0.1:0',
        MONITOR_LOG_LEVEL: 'error',
        MONITOR_DATABASE_DRIVER: 'sqlite',
        MONITOR_DATABASE_URL: `file:${join(dataDir, 'repo-monitor.db')}`,
      },
    });
    const app = await createMonitorApp(config);
    try {
      const { document, problems } = createOpenApiDocument(app, packageVersion());
      if (problems.length) throw new Error(`the document does not match the code; fix the decorators:\n  ${problems.join('\n  ')}`);
      writeFileSync(outputFile, JSON.stringify(document));
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const outputFile = process.argv[2];
if (!outputFile) {
  process.stderr.write('usage: openapi-export <output file>\n');
  process.exit(2);
}
exportOpenApi(outputFile).catch((error: unknown) => {
  process.stderr.write(`repo-monitor OpenAPI export failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
