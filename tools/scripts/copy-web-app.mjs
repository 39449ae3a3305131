#!/usr/bin/env node
// After `nx build <service>`: copies the built web app (dist/apps/<web>) into the service's dist
// folder as `web/`, so the service's image serves its UI from the same container.
// Usage: node tools/scripts/copy-web-app.mjs <web-app> <service>
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const [web, service] = process.argv.slice(2);
if (!web || !service) {
  console.error('usage: copy-web-app.mjs <web-app> <service>');
  process.exit(2);
}
const source = join(root, 'dist/apps', web);
const target = join(root, 'dist/apps', service, 'web');
if (!existsSync(join(source, 'index.html'))) {
  console.error(`copy-web-app: ${source}/index.html is missing; build ${web} first`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log(`copy-web-app: dist/apps/${web} -> dist/apps/${service}/web`);
