// Scores the offline rules engine on a labelled corpus: writes each document's `data` where
// score.mjs --predictions expects it, then runs the scorer and prints its report.
//   npx tsx scripts/score-local.ts [--corpus DIR] [--verbose] [--route invoice]
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { spawnSync } from 'node:child_process';
import { extractCustom, extractFixed } from '../server/src/extraction/engines/local/index.js';
import type { FixedKind, JsonSchema } from '../server/src/extraction/engines/engine.js';

const SCORER = '/work/shared/corpus/score.mjs';
const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const corpus = opt('corpus') ?? '/work/shared/corpus';
const out = mkdtempSync(join(tmpdir(), 'local-predictions-'));

// Route folders only: a folder holding documents (a nested held-out set is scored on its own with --corpus).
for (const route of readdirSync(corpus, { withFileTypes: true }).filter((d) => d.isDirectory() && readdirSync(join(corpus, d.name)).some((f) => f.endsWith('.txt'))).map((d) => d.name)) {
  mkdirSync(join(out, route), { recursive: true });
  for (const file of readdirSync(join(corpus, route)).filter((f) => f.endsWith('.txt'))) {
    const slug = basename(file, '.txt');
    const text = readFileSync(join(corpus, route, file), 'utf8');
    let data: unknown;
    if (route === 'custom') {
      const schemaFile = join(corpus, route, `${slug}.schema.json`);
      if (!existsSync(schemaFile)) continue;
      data = extractCustom(JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema, text);
    } else data = extractFixed(route as FixedKind, text);
    writeFileSync(join(out, route, `${slug}.json`), JSON.stringify(data, null, 2));
  }
}

const pass = ['--predictions', out, '--corpus', corpus];
if (argv.includes('--verbose')) pass.push('--verbose');
if (opt('route')) pass.push('--route', opt('route')!);
const res = spawnSync(process.execPath, [SCORER, ...pass], { encoding: 'utf8' });
process.stdout.write(res.stdout);
process.stderr.write(res.stderr);
console.log(`predictions: ${out}`);
process.exit(res.status ?? 1);
