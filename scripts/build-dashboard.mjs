#!/usr/bin/env node
// Builds the dashboard into server/dashboard/dist (not committed): esbuild bundles the TypeScript app (with the
// SDK it calls the API through); the page and styles are copied as they are.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dir = fileURLToPath(new URL('../server/dashboard/', import.meta.url));
rmSync(`${dir}dist`, { recursive: true, force: true });
mkdirSync(`${dir}dist`, { recursive: true });
await build({
  entryPoints: [`${dir}src/main.ts`],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  // The SDK reads a file path with node:fs, imported only when a path is given (never in a browser).
  external: ['node:*'],
  minify: true,
  sourcemap: false,
  outfile: `${dir}dist/app.js`,
  logLevel: 'warning',
});
copyFileSync(`${dir}index.html`, `${dir}dist/index.html`);
copyFileSync(`${dir}styles.css`, `${dir}dist/styles.css`);
console.log('built server/dashboard/dist');
