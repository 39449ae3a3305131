import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package version: from the generated dist/package.json in production, the workspace one from source. */
export function packageVersion(): string {
  for (const candidate of [join(__dirname, 'package.json'), join(__dirname, '../../../package.json')]) {
    try {
      const version = (JSON.parse(readFileSync(candidate, 'utf8')) as { version?: string }).version;
      if (version && version !== '0.0.1') return version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
}
