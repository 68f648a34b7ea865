// Simulated reviewers on labelled sets the engine was not tuned on: per route, one half of the documents is reviewed
// (each value the offline engine found is confirmed or not by the label, as a reviewer resolving with the label would),
// the account's map is fitted on it as the service fits it (reviews/platt.ts; --method isotonic for the alternative; only for routes with at least
// --min reviewed values, MIN_CALIBRATION_VALUES by default), and the other half is extracted: ECE, AUROC and precision
// at minConfidence 0.8 there, before and after the map. Runs in-process on the service's own modules (no server).
//
//   npx tsx scripts/measure-review.ts [--sets fresh9] [--min 200]
import { parseArgs } from 'node:util';
import { auroc, ece } from '../server/src/evaluations/scoring.js';
import { MIN_CALIBRATION_VALUES } from '../server/src/reviews/account-calibration.js';
import { applyMap, fitIsotonic } from '../server/src/reviews/isotonic.js';
import { applyPlatt, fitPlatt } from '../server/src/reviews/platt.js';
import { SETS } from '../server/test/local-engine/accuracy/sets.js';
import { trustOfSet, type DocTrust } from '../server/test/local-engine/accuracy/trust.js';

const { values: args } = parseArgs({ options: { method: { type: 'string', default: 'platt' }, sets: { type: 'string', default: 'fresh9' }, min: { type: 'string', default: String(MIN_CALIBRATION_VALUES) } } });
const min = Number(args.min);
const docs: DocTrust[] = args.sets!.split(',').flatMap((set) => trustOfSet(SETS[set]!).map((d) => ({ ...d, doc: `${set}/${d.doc}` })));

type V = { confidence: number; correct: boolean };
const byRoute = new Map<string, DocTrust[]>();
for (const d of docs) byRoute.set(d.route, [...(byRoute.get(d.route) ?? []), d]);

const r3 = (x: number) => x.toFixed(3);
const at = (vs: V[], t: number) => {
  const kept = vs.filter((v) => v.confidence >= t);
  return { precision: kept.length ? kept.filter((v) => v.correct).length / kept.length : NaN, kept: kept.length };
};
const rows: string[] = [];
const before: V[] = [], after: V[] = [];
let reviewedAll = 0;
for (const [route, list] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
  const sorted = [...list].sort((a, b) => a.doc.localeCompare(b.doc));
  // Alternate documents: each half has every set and language of the route.
  const reviewed = sorted.filter((_, i) => i % 2 === 0).flatMap((d) => d.values.map((v) => ({ confidence: v.confidence, correct: v.correct })));
  const held = sorted.filter((_, i) => i % 2 === 1).flatMap((d) => d.values.map((v) => ({ confidence: v.confidence, correct: v.correct })));
  reviewedAll += reviewed.length;
  const fit = (vs: V[]): ((c: number) => number) => {
    if (args.method === 'platt') { const m = fitPlatt(vs); return (c) => applyPlatt(m, c); }
    const m = fitIsotonic(vs);
    return (c) => applyMap(m, c);
  };
  const map = reviewed.length >= min ? fit(reviewed) : null;
  const mapped = held.map((v) => ({ confidence: map ? map(v.confidence) : v.confidence, correct: v.correct }));
  before.push(...held);
  after.push(...mapped);
  const b = at(held, 0.8), a = at(mapped, 0.8);
  rows.push(`| ${route} | ${Math.ceil(list.length / 2)} / ${Math.floor(list.length / 2)} | ${reviewed.length} | ${map ? 'yes' : 'no'} | ${held.length} | ${r3(ece(held))} → ${r3(ece(mapped))} | ${r3(auroc(held))} → ${r3(auroc(mapped))} | ${r3(b.precision)} (${b.kept}) → ${r3(a.precision)} (${a.kept}) |`);
}
const b = at(before, 0.8), a = at(after, 0.8);
console.log(`${args.method}, sets ${args.sets}: ${docs.length} documents, ${reviewedAll} values reviewed; routes calibrated at ${min} reviewed values or more\n`);
console.log('| route | documents reviewed / extracted | values reviewed | calibrated | values extracted | ECE before → after | AUROC before → after | precision at 0.8 (values kept) before → after |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`| all | ${Math.ceil(docs.length / 2)} / ${Math.floor(docs.length / 2)} | ${reviewedAll} | | ${before.length} | ${r3(ece(before))} → ${r3(ece(after))} | ${r3(auroc(before))} → ${r3(auroc(after))} | ${r3(b.precision)} (${b.kept}) → ${r3(a.precision)} (${a.kept}) |`);
