#!/usr/bin/env node
// Builds sdk/dist: compiles sdk/src, and ships the contract's generated types inside the package. Run by `npm install`
// (postinstall, so the SDK imports and `npx docextract` runs from a fresh clone), `npm run build -w sdk` and `npm pack`.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}sdk/dist`;
// Built beside it and swapped in at the end, so sdk/dist is never half-built for whatever imports or runs it meanwhile
// (the test suite packs the SDK while other suites run its CLI).
const dist = `${root}sdk/dist.building-${process.pid}`;
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}sdk/tsconfig.build.json`, '--outDir', dist], { stdio: 'inherit' });
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
// The CLI runs as a program (`npx docextract` from the repository, and the package's bin once installed): executable.
chmodSync(`${dist}/cli.js`, 0o755);
rmSync(target, { recursive: true, force: true });
renameSync(dist, target);
console.log('built sdk/dist');
