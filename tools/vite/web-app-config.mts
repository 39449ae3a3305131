/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface WebAppOptions {
  /** The app's folder (its vite.config.mts passes its own directory). */
  appRoot: string;
  /** The app's name under apps/ and dist/apps/. */
  name: string;
  /** The port of the service whose `/api` the dev server forwards to. */
  devApiPort: number;
}

/**
 * The one build and test set-up of the services' web apps: built to dist/apps/<name>, which the
 * service's build copies to dist/apps/<service>/web and serves at `/` (hashed files under /assets/
 * cached for a year, everything else revalidated); component tests in jsdom.
 */
export function webAppConfig({ appRoot, name, devApiPort }: WebAppOptions): UserConfig {
  return defineConfig({
    root: appRoot,
    base: '/',
    plugins: [iconsByFile(), react()],
    resolve: {
      alias: {
        '@shared/web-ui/testing': `${root}libs/web-ui/src/testing/index.tsx`,
        '@shared/web-ui': `${root}libs/web-ui/src/index.ts`,
        '@shared/panel-texts/all': `${root}libs/panel-texts/src/all.ts`,
        '@shared/panel-texts': `${root}libs/panel-texts/src/index.ts`,
      },
    },
    build: {
      outDir: `${root}dist/apps/${name}`,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      chunkSizeWarningLimit: 700,
    },
    server: {
      proxy: { '/api': `http://127.0.0.1:${devApiPort}` },
    },
    test: {
      environment: 'jsdom',
      // Each spec file still gets its own jsdom and module instances, in a VM context of a reused
      // worker thread rather than a fresh process: half the CPU of the default forks (a jsdom and
      // React/Mantine loaded anew per file was most of it).
      pool: 'vmThreads',
      globals: true,
      include: ['src/**/*.spec.{ts,tsx}'],
      setupFiles: [`${root}libs/web-ui/src/testing/setup.ts`],
      css: false,
      // Generous: the bound of a test that waits for named states, not a speed target (CI runs other
      // steps on the same cores at the same time).
      testTimeout: 60_000,
      hookTimeout: 60_000,
      reporters: ['default', `${root}tools/testing/vitest-results-reporter.mjs`],
    },
  });
}

/**
 * `import { IconPlus } from '@tabler/icons-react'` made `import IconPlus from
 * '@tabler/icons-react/dist/esm/icons/IconPlus.mjs'`: the package's index re-exports 6,288 icon
 * modules, which the build parsed and tree-shook away again (85 % of its modules). Each icon module
 * is what the index itself re-exports, so the app is the same.
 */
function iconsByFile(): Plugin {
  const indexImport = /import\s*\{([^}]*)\}\s*from\s*['"]@tabler\/icons-react['"];?/g;
  return {
    name: 'tabler-icons-by-file',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('@tabler/icons-react')) return null;
      const rewritten = code.replace(indexImport, (_, names: string) =>
        names
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
          .map((entry) => {
            const [imported, local = imported] = entry.split(/\s+as\s+/);
            if (!/^Icon[A-Za-z0-9]+$/.test(imported)) throw new Error(`${id}: only icon components are imported from @tabler/icons-react (found ${imported})`);
            return `import ${local} from '@tabler/icons-react/dist/esm/icons/${imported}.mjs';`;
          })
          .join('\n'),
      );
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}
