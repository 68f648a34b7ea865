// Times the offline rules engine:
//  - a ~10 KB document per route (the held-out fixtures, repeated to size);
//  - invoices of 2 KB, 40 table rows and 10 KB, every iteration a different document (varied item words), so
//    answers the engine memoises per label do not flatter the figure.
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
  console.log(`${route.padEnd(24)} ${(text.length / 1024).toFixed(1)} KB  ${ms.toFixed(2)} ms/doc`);
}

// Invoices with an aligned table, each one different.
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'oscar', 'papa', 'romeo'];
let seed = 7;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const word = () => `${WORDS[Math.floor(rnd() * WORDS.length)]}${Math.floor(rnd() * 1000)}`;
function invoice(rows: number): string {
  let table = '';
  for (let i = 1; i <= rows; i++) table += `${String(i).padEnd(4)} ${word()} ${word()} service, ${word()}     ${i % 5 + 1}    ${(100 + i).toFixed(2)}    ${((i % 5 + 1) * (100 + i)).toFixed(2)}\n`;
  return `${word()} Widgets Ltd\n1 High Street\nLondon EC1 1AA\nVAT No: GB123456789\n\nInvoice No: INV-${Math.floor(rnd() * 9999)}\nDate: 2026-03-01\nDue Date: 2026-03-31\n\nBill To:\n${word()} Corp\n2 Low Road\nLeeds LS1 1AA\n\nPos  Description                               Qty   Unit Price   Amount\n${table}\nSubtotal: 1000.00\nVAT 20%: 200.00\nTotal: 1200.00\n`;
}
for (const [label, rows, size] of [['invoice, varied, 2 KB', 24, 2048], ['invoice, varied, 40 rows', 40, Infinity], ['invoice, varied, 10 KB', 160, TARGET]] as const) {
  const docs = Array.from({ length: Math.max(60, Math.min(iterations, 300)) }, () => invoice(rows).slice(0, size));
  for (const d of docs.slice(0, 10)) extractFixed('invoice', d);
  const rest = docs.slice(10);
  const t0 = performance.now();
  for (const d of rest) extractFixed('invoice', d);
  console.log(`${label.padEnd(24)} ${(docs[0]!.length / 1024).toFixed(1)} KB  ${((performance.now() - t0) / rest.length).toFixed(2)} ms/doc`);
}
