/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

// Built to dist/apps/repo-monitor-web; repo-monitor's build copies it to dist/apps/repo-monitor/web and
// serves it at `/` (hashed files under /assets/ cached for a year, everything else revalidated).
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  resolve: {
    alias: {
      '@shared/web-ui/testing': `${root}libs/web-ui/src/testing/index.tsx`,
      '@shared/web-ui': `${root}libs/web-ui/src/index.ts`,
    },
  },
  build: {
    outDir: `${root}dist/apps/repo-monitor-web`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: [`${root}libs/web-ui/src/testing/setup.ts`],
    css: false,
    testTimeout: 20_000,
    reporters: ['default', `${root}tools/testing/vitest-results-reporter.mjs`],
  },
});
