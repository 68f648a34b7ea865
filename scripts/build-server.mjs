#!/usr/bin/env node
// Compiles server/src to server/dist (not committed), file for file, so `npm start` runs plain JavaScript: loading
// through a TypeScript loader at every start cost seconds. Types are checked by `npm run typecheck`, not here.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const src = fileURLToPath(new URL('../server/src/', import.meta.url));
const out = fileURLToPath(new URL('../server/dist/', import.meta.url));
const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(src, f));
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints,
  outbase: src,
  outdir: out,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// Data files read beside the code that uses them (fitted models: server/src/classification/learned/*.json).
const dataFiles = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
for (const f of dataFiles) cpSync(join(src, f), join(out, f));
console.log(`built server/dist (${entryPoints.length} modules, ${dataFiles.length} data files)`);
