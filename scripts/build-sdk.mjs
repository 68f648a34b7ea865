#!/usr/bin/env node
// Builds sdk/dist: compiles sdk/src, and ships the contract's generated types inside the package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
// One declaration file for the package, with json-schema-to-ts's types (FromSchema, which types a custom schema's
// answer) inlined: the package then depends on it for nothing at run time, and consumers do not install its 2.9 MB.
const bundler = createRequire(import.meta.url).resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js');
execFileSync(process.execPath, [bundler, '--silent', '--project', `${root}sdk/tsconfig.build.json`, '--no-check', '--export-referenced-types=false',
  '-o', `${dist}/index.bundled.d.ts`, '--external-inlines', 'json-schema-to-ts', 'ts-algebra', '--', `${root}sdk/src/index.ts`], { stdio: 'inherit' });
for (const file of readdirSync(dist)) if (file.endsWith('.d.ts') && file !== 'index.bundled.d.ts') rmSync(`${dist}/${file}`);
renameSync(`${dist}/index.bundled.d.ts`, `${dist}/index.d.ts`);
console.log('built sdk/dist');
