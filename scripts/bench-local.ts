// Times the offline rules engine on a ~10 KB document per route (the held-out fixtures, repeated to size).
//   npx tsx scripts/bench-local.ts [--iterations 200]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { extractCustom, extractFixed } from '../server/src/extraction/engines/local/index.js';
import type { FixedKind, JsonSchema } from '../server/src/extraction/engines/engine.js';

const FIXTURES = join(import.meta.dirname, '../server/test/local-engine/fixtures');
const argv = process.argv.slice(2);
const iterations = Number(argv[argv.indexOf('--iterations') + 1] || 0) || 200;
const TARGET = 10 * 1024;

for (const route of readdirSync(FIXTURES).sort()) {
  const dir = join(FIXTURES, route);
  const docs = readdirSync(dir).filter((f) => f.endsWith('.txt'));
  if (docs.length === 0) continue;
  let text = readFileSync(join(dir, docs[0]!), 'utf8');
  const filler = docs.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n\n');
  while (text.length < TARGET) text += `\n\n${filler}`;
  text = text.slice(0, TARGET);
  const schemaFile = join(dir, docs[0]!.replace(/\.txt$/, '.schema.json'));
  const schema = existsSync(schemaFile) ? (JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema) : null;
  const run = () => (route === 'custom' ? extractCustom(schema ?? { type: 'object', properties: {} }, text) : extractFixed(route as FixedKind, text));
  for (let i = 0; i < 20; i++) run(); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) run();
  const ms = (performance.now() - t0) / iterations;
  console.log(`${route.padEnd(14)} ${(text.length / 1024).toFixed(1)} KB  ${ms.toFixed(2)} ms/doc`);
}
