import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: { alias: { '@shared/web-ui/testing': `${here}src/testing/index.tsx`, '@shared/web-ui': `${here}src/index.ts` } },
  test: {
    environment: 'jsdom',
    // Own jsdom and modules per spec file, in a VM context of a reused worker (see tools/vite/web-app-config.mts).
    pool: 'vmThreads',
    globals: true,
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: [`${here}src/testing/setup.ts`],
    css: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', `${here}../../tools/testing/vitest-results-reporter.mjs`],
  },
});
