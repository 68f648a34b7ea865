// Classification accuracy of the offline classifier on labelled sets:
//   npx tsx scripts/score-classify.ts                 every labelled set of the repo (fixtures, fresh*, shared corpus)
//   npx tsx scripts/score-classify.ts --dir DIR       one folder of route folders with its kinds.json (`route/slug` -> kind)
//   --verbose                                         each wrong answer with the model's probabilities
import { parseArgs } from 'node:util';
import { classifyText, rankLabels } from '../server/src/classification/classify-text.js';
import { labelledSets, setDocuments, type LabelledDoc } from './lib/classify-sets.js';

const { values } = parseArgs({ options: { dir: { type: 'string' }, verbose: { type: 'boolean' } } });
const sets = values.dir ? new Map([[values.dir, setDocuments(values.dir, values.dir, '')]]) : labelledSets();

let all = 0, right = 0;
for (const [name, docs] of sets) {
  const wrong: Array<{ doc: LabelledDoc; got: string; confidence: number }> = [];
  for (const doc of docs) {
    const answer = classifyText(doc.text);
    if (answer.kind !== doc.kind) wrong.push({ doc, got: answer.kind, confidence: answer.confidence });
  }
  all += docs.length;
  right += docs.length - wrong.length;
  console.log(`${name.padEnd(12)} ${(docs.length - wrong.length)}/${docs.length}  accuracy ${((docs.length - wrong.length) / Math.max(1, docs.length)).toFixed(3)}`);
  for (const w of wrong) {
    console.log(`   ${w.doc.id}: ${w.doc.kind} -> ${w.got} (${w.confidence})`);
    if (values.verbose) console.log(`      ${rankLabels(w.doc.text).map((r) => `${r.kind} ${r.confidence.toFixed(2)}`).join(', ')}`);
  }
}
console.log(`all          ${right}/${all}  accuracy ${(right / Math.max(1, all)).toFixed(3)}`);
