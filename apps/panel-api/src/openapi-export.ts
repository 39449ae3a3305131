// Writes this service's OpenAPI document to the file named by the first argument. Run by
// tools/scripts/openapi.mjs (`npm run openapi`); builds the application against a throwaway data
// directory without listening or starting any module, so it needs neither network nor a database.
import 'reflect-metadata';
import { packageVersion } from '@shared/config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPanelConfig } from './app/config/panel-config';
import { createPanelApp } from './app/create-app';
import { createOpenApiDocument } from './app/openapi';

async function exportOpenApi(outputFile: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'panel-openapi-'));
  try {
    const config = loadPanelConfig({ HOST: '127.0.0.1', PORT: '0', APP_DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    const app = await createPanelApp(config);
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
  process.stderr.write(`panel-api OpenAPI export failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
