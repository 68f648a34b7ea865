// How fast the offline classifier reads a document: the median time to classify 10 KB of text (the fixtures' documents
// run together), and the first call, which also loads the model.
//   npx tsx scripts/bench-classify.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyText } from '../server/src/classification/classify-text.js';
import { FIXTURES } from './lib/classify-sets.js';

const texts = ['contract', 'invoice', 'meeting-notes', 'receipt', 'renewal', 'job-posting']
  .flatMap((route) => readdirSync(join(FIXTURES, route)).filter((f) => f.endsWith('.txt')).map((f) => readFileSync(join(FIXTURES, route, f), 'utf8')));
let text = '';
while (text.length < 10_000) text += `${texts.join('\n\n')}\n\n`;
text = text.slice(0, 10_000);

let t = performance.now();
classifyText(text);
console.log(`first call (loads the model): ${(performance.now() - t).toFixed(1)} ms`);
const times: number[] = [];
for (let i = 0; i < 101; i++) {
  t = performance.now();
  classifyText(text);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`per 10 KB: median ${times[50]!.toFixed(2)} ms, p90 ${times[90]!.toFixed(2)} ms; heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
