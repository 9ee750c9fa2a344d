import { defineConfig } from 'vite';
import { sourceAliases } from './scripts/entries.mjs';

/**
 * The playground's Vite configuration (`web/`, built into `dist-web/`, which the Worker serves as static assets).
 * It sits at the project root, like vitest.config.ts, because Vite reads a config file's default export.
 */
export default defineConfig({
  root: `${import.meta.dirname}/web`,
  base: './',
  // The playground imports Ghostlight as users do; in this repository the entries map to their sources.
  resolve: { alias: sourceAliases(import.meta.dirname, 'browser') },
  build: {
    outDir: `${import.meta.dirname}/dist-web`,
    emptyOutDir: true,
    target: 'es2023',
    chunkSizeWarningLimit: 1200,
  },
  server: {
    host: '127.0.0.1',
    strictPort: true,
    // `vite dev` talks to a Worker running under `npm start`.
    proxy: { '/agents': 'http://127.0.0.1:8787' },
  },
  preview: { host: '127.0.0.1', strictPort: true },
});
