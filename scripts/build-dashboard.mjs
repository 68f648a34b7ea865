#!/usr/bin/env node
// Builds the dashboard into server/dashboard/dist (not committed): esbuild bundles the TypeScript app (with the
// SDK it calls the API through); the page and styles are copied as they are; pdf.js's browser build, its worker and
// its standard fonts are copied from the installed pdfjs-dist (the server reads PDFs with it already) into
// dist/pdfjs/, for the "Try a document" page to render PDF pages from this origin, loaded only when it shows one.
import { copyFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
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
const pdfjs = dirname(createRequire(`${dir}../package.json`).resolve('pdfjs-dist/package.json'));
mkdirSync(`${dir}dist/pdfjs`, { recursive: true });
for (const f of ['pdf.min.mjs', 'pdf.worker.min.mjs']) copyFileSync(`${pdfjs}/build/${f}`, `${dir}dist/pdfjs/${f}`);
cpSync(`${pdfjs}/standard_fonts`, `${dir}dist/pdfjs/standard_fonts`, { recursive: true });
copyFileSync(`${pdfjs}/LICENSE`, `${dir}dist/pdfjs/LICENSE`);
console.log('built server/dashboard/dist');
