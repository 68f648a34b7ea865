#!/usr/bin/env node
// Builds sdk/dist: compiles sdk/src, and ships the contract's generated types inside the package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}sdk/dist`;
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}sdk/tsconfig.build.json`], { stdio: 'inherit' });
copyFileSync(`${root}generated/openapi.d.ts`, `${dist}/openapi.d.ts`);
for (const file of ['contract.d.ts', 'contract.js']) {
  const path = `${dist}/${file}`;
  writeFileSync(path, readFileSync(path, 'utf8').replace('../../generated/openapi.js', './openapi.js'));
}
console.log('built sdk/dist');
