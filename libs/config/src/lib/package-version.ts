import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Nx's placeholder version of a generated project package.json, not a release.
const PLACEHOLDER_VERSION = '0.0.1';

/**
 * The version of the nearest package.json above `startDirectory`: the generated dist/package.json
 * next to a built bundle, the workspace one when running from source. `0.0.0` when there is none.
 */
export function packageVersion(startDirectory: string = __dirname): string {
  let directory = startDirectory;
  for (;;) {
    try {
      const version = (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version?: unknown }).version;
      if (typeof version === 'string' && version && version !== PLACEHOLDER_VERSION) return version;
    } catch {
      // no readable package.json here; look further up
    }
    const parent = dirname(directory);
    if (parent === directory) return '0.0.0';
    directory = parent;
  }
}
