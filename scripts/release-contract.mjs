#!/usr/bin/env node
// Records the contract as released: copies generated/openapi.json to generated/released/openapi.json, the document
// `npm run check:breaking` compares with. Run it on purpose, at a release (after `npm run generate`, whose drift
// check `npm run release:contract` runs first); from then on, spec/CHANGELOG.md entries of this version and older are
// history and allow no further break.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'generated', 'openapi.json');
const to = join(root, 'generated', 'released', 'openapi.json');
const version = (file) => {
  try { return JSON.parse(readFileSync(file, 'utf8')).info?.version ?? '?'; } catch { return 'none'; }
};
const previous = version(to);
mkdirSync(dirname(to), { recursive: true });
copyFileSync(from, to);
console.log(`released contract: generated/released/openapi.json is now ${version(to)} (was ${previous}); commit it.`);
