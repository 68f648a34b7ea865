// Field F1 and precision of the offline engine on one labelled set, per language family (from the set's
// MANIFEST.jsonl), at the default threshold as the service answers and with nothing withheld, and classification.
//   npx tsx scripts/score-languages.ts DIR [--min 0.8]   (the threshold: the service's default unless given)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { trustOfSet } from '../server/test/local-engine/accuracy/trust.js';
import { compare } from '../server/test/local-engine/accuracy/score.js';
import { withhold } from '../server/src/extraction/evidence/withhold.js';
import { DEFAULT_MIN_CONFIDENCE } from '../server/src/extraction/evidence/thresholds.js';
import { classifyText } from '../server/src/classification/classify-text.js';

const dir = process.argv[2];
const minAt = process.argv.indexOf('--min');
const threshold = minAt > 0 ? Number(process.argv[minAt + 1]) : DEFAULT_MIN_CONFIDENCE.local;
if (!dir) { console.error('usage: npx tsx scripts/score-languages.ts DIR'); process.exit(2); }
const manifest = new Map(readFileSync(join(dir, 'MANIFEST.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { path: string; language: string; kind: string }).map((m) => [m.path, m]));
/** Language families as the issue names them. */
const FAMILY: Record<string, string> = {
  English: 'Germanic', German: 'Germanic', Dutch: 'Germanic', Swedish: 'Germanic', Danish: 'Germanic', Norwegian: 'Germanic',
  Spanish: 'Romance', Portuguese: 'Romance', French: 'Romance', Italian: 'Romance', Romanian: 'Romance',
  Polish: 'Slavic', Czech: 'Slavic', Slovak: 'Slavic', Russian: 'Slavic', Ukrainian: 'Slavic',
  Hungarian: 'Uralic', Finnish: 'Uralic', Greek: 'Greek', Turkish: 'Turkic',
  Arabic: 'Semitic', Hebrew: 'Semitic', Hindi: 'Indic', Indonesian: 'Austronesian', Malay: 'Austronesian',
  Vietnamese: 'Southeast Asian', Thai: 'Southeast Asian', Chinese: 'East Asian', Japanese: 'East Asian', Korean: 'East Asian',
};
const familyOf = (language: string) => FAMILY[language.split(/[ (]/)[0]!] ?? language;
type Tally = { tp: number; fp: number; fn: number; tpKept: number; fpKept: number; fnKept: number; docs: number; classified: number; classRight: number };
const tallies = new Map<string, Tally>();
const tally = (k: string) => { let t = tallies.get(k); if (!t) tallies.set(k, (t = { tp: 0, fp: 0, fn: 0, tpKept: 0, fpKept: 0, fnKept: 0, docs: 0, classified: 0, classRight: 0 })); return t; };
for (const doc of trustOfSet(dir)) {
  const m = manifest.get(doc.doc);
  const fam = m ? familyOf(m.language) : 'unknown';
  const all = compare(doc.label as never, doc.data as never);
  const below = new Set(doc.values.filter((v) => v.confidence < threshold && v.pointer !== '/documentKindGuess').map((v) => v.pointer));
  const kept = compare(doc.label as never, withhold(doc.data, below, doc.route === 'renewal').data as never);
  for (const key of [fam, 'all']) {
    const t = tally(key);
    t.docs++; t.tp += all.tp; t.fp += all.fp; t.fn += all.fn; t.tpKept += kept.tp; t.fpKept += kept.fp; t.fnKept += kept.fn;
    if (doc.route !== 'custom' && m) { t.classified++; if (classifyText(doc.text).kind === m.kind) t.classRight++; }
  }
}
const f1 = (tp: number, fp: number, fn: number) => (2 * tp) / Math.max(1, 2 * tp + fp + fn);
console.log(`| family | docs | F1 (all found) | precision | F1 at ${threshold} | precision at ${threshold} | recall at ${threshold} | classification |`);
console.log('|---|---|---|---|---|---|---|---|');
for (const [k, t] of [...tallies].sort((a, b) => (a[0] === 'all' ? 1 : b[0] === 'all' ? -1 : a[0].localeCompare(b[0])))) {
  console.log(`| ${k} | ${t.docs} | ${f1(t.tp, t.fp, t.fn).toFixed(3)} | ${(t.tp / Math.max(1, t.tp + t.fp)).toFixed(3)} | ${f1(t.tpKept, t.fpKept, t.fnKept).toFixed(3)} | ${(t.tpKept / Math.max(1, t.tpKept + t.fpKept)).toFixed(3)} | ${(t.tpKept / Math.max(1, t.tpKept + t.fnKept)).toFixed(3)} | ${t.classified ? `${t.classRight}/${t.classified}` : '-'} |`);
}
