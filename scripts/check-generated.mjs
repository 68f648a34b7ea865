#!/usr/bin/env node
// Fails (exit 1), naming the files, when generated/ is not what spec/ compiles to.
// generated/released/ is not compiled output: it is the last released contract, kept on purpose for
// `npm run check:breaking` and updated by `npm run release:contract`, so it is left out of the comparison.
import { mkdtempSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const committed = join(root, 'generated');
const fresh = mkdtempSync(join(tmpdir(), 'docextract-generated-'));
const RELEASED = 'released';
try {
  await generate(fresh);
  const names = new Set([...readdirSync(fresh), ...(existsSync(committed) ? readdirSync(committed) : [])].filter((n) => n !== RELEASED));
  const differ = [...names].sort().filter((name) => {
    const a = join(committed, name), b = join(fresh, name);
    return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
  });
  if (differ.length) {
    console.error(`generated/ is out of date with spec/: ${differ.map((n) => `generated/${n}`).join(', ')}\nRun \`npm run generate\` and commit the result.`);
    process.exit(1);
  }
  console.log('generated/ matches spec/');
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
