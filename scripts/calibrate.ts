// Fits the offline engine's confidence model (server/models/calibration.json) on labelled documents and reports how
// well it is calibrated on held-out folds (split by document, stratified by language).
//   npx tsx scripts/calibrate.ts [--set NAME|DIR ...] [--seed N] [--target 0.9] [--dry-run]
// Default set: the training corpus (corpus/training). Each value the engine returns is a row: its features
// (evidence/features.ts: how it was found, the checks it took part in, its shape, and the words before it hashed with
// its field) and whether it is right by the scorer's rules. A finder's prior is its record on the other documents
// (never its own), shrunk towards its field's and the engine's; the weights come from an L2-regularised logistic
// regression (full-batch Adam; the hashed word features more strongly regularised than the rest). The recommended
// threshold is the lowest at which the held-out values kept reach the precision target (docs/evidence.md); with
// `--target 0.97 --dry-run` it is the cascade's CASCADE_KEEP default (docs/models.md, engines/cascade/keep.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CalibrationModel, EngineModel } from '../server/src/extraction/evidence/confidence.js';
import { calibration, priorLogit } from '../server/src/extraction/evidence/confidence.js';
import { auroc, ece, trustOfSet, type JudgedValue } from '../server/test/local-engine/accuracy/trust.js';
import { SETS } from '../server/test/local-engine/accuracy/sets.js';
import { fitLogistic, foldsByLanguage, languagesOf, sigmoid } from './lib/logistic.js';

const argv = process.argv.slice(2);
const opt = (name: string) => argv.flatMap((a, i) => (argv[i - 1] === name ? [a] : []));
const sets = opt('--set');
const TRAINING = fileURLToPath(new URL('../corpus/training', import.meta.url));
const dirs = sets.length ? sets.map((s) => SETS[s] ?? s) : [TRAINING];
const seed = Number(opt('--seed')[0] ?? 36);
const target = Number(opt('--target')[0] ?? 0.9);

type Row = JudgedValue & { set: string };
const current = calibration();
const rows: Row[] = dirs.flatMap((d) => trustOfSet(d, { model: current.engines.local }).flatMap((doc) => doc.values.map((v) => ({ ...v, doc: `${d}:${v.doc}`, set: d }))));
const docs = [...new Set(rows.map((r) => r.doc))];
console.log(`${rows.length} values from ${docs.length} documents (${dirs.join(', ')}); right ${(rows.filter((r) => r.correct).length / rows.length).toFixed(3)}`);

const language = languagesOf(dirs);
const langOf = (doc: string) => language.get(doc) ?? 'unknown';

const FOLDS = 5;
const foldOf = foldsByLanguage(docs, langOf, FOLDS, seed);

/** Right and wrong counts of each finder and field over `rows`. */
function stats(of: Row[]): Omit<EngineModel, 'weights'> {
  const finders: Record<string, [number, number]> = {}, fields: Record<string, [number, number]> = {};
  const add = (m: Record<string, [number, number]>, k: string, ok: boolean) => { m[k] ??= [0, 0]; m[k]![ok ? 0 : 1]++; };
  for (const r of of) { add(fields, r.field, r.correct); if (r.finder) add(finders, r.finder, r.correct); }
  const base = of.length ? of.filter((r) => r.correct).length / of.length : 0.5;
  return { finders, fields, base };
}

/** `of` minus one document's own record: counts subtracted, not recounted, so leaving each document out is cheap. */
function without(s: Omit<EngineModel, 'weights'>, own: Row[], total: number): Omit<EngineModel, 'weights'> {
  const finders = { ...s.finders }, fields = { ...s.fields };
  const sub = (m: Record<string, [number, number]>, k: string, ok: boolean) => { const [r, w] = m[k]!; m[k] = ok ? [r - 1, w] : [r, w - 1]; };
  let right = s.base * total;
  for (const r of own) { sub(fields, r.field, r.correct); if (r.finder) sub(finders, r.finder, r.correct); if (r.correct) right--; }
  const n = total - own.length;
  return { finders, fields, base: n ? right / n : s.base };
}

type Example = { x: Record<string, number>; y: number };

/** The rows' features, each with its prior from the other documents of `from` only. */
function withPriors(of: Row[], from: Row[]): Example[] {
  const all = stats(from);
  const ownRows = new Map<string, Row[]>();
  for (const r of from) ownRows.set(r.doc, [...(ownRows.get(r.doc) ?? []), r]);
  const cache = new Map<string, Omit<EngineModel, 'weights'>>();
  return of.map((r) => {
    if (!cache.has(r.doc)) cache.set(r.doc, without(all, ownRows.get(r.doc) ?? [], from.length));
    return { x: { ...r.features, prior: priorLogit({ ...cache.get(r.doc)!, weights: {} }, r.field, r.finder) }, y: r.correct ? 1 : 0 };
  });
}

const isContext = (name: string) => name.startsWith('ctx:');

/**
 * L2-regularised logistic regression (scripts/lib/logistic.ts): `lambda` weighs the penalty on the engine's own
 * features, `lambdaContext` that on the hashed words (many, each seen rarely); the bias is free.
 */
function fit(data: Example[], lambda: number, lambdaContext: number): Record<string, number> {
  const names = [...new Set(data.flatMap((d) => Object.keys(d.x)))].sort();
  const index = new Map(names.map((k, i) => [k, i]));
  const sparse = data.map((d) => ({ idx: Object.keys(d.x).map((k) => index.get(k)!), val: Object.values(d.x), y: d.y }));
  const w = fitLogistic(sparse, names.length, (j) => (names[j] === 'bias' ? 0 : isContext(names[j]!) ? lambdaContext : lambda));
  const out: Record<string, number> = {};
  names.forEach((k, j) => { const r = Math.round(w[j]! * 1e3) / 1e3; if (r !== 0 || !isContext(k)) out[k] = r; });
  return out;
}

const predict = (w: Record<string, number>, x: Record<string, number>) => sigmoid(Object.entries(x).reduce((s, [k, v]) => s + (w[k] ?? 0) * v, 0));

type Judged = { confidence: number; correct: boolean; doc: string };

/** Held-out confidences: fit on four folds, predict the fifth. */
function crossValidated(lambda: number, lambdaContext: number): Judged[] {
  const held: Judged[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = rows.filter((r) => foldOf.get(r.doc) !== f);
    const test = rows.filter((r) => foldOf.get(r.doc) === f);
    const w = fit(withPriors(train, train), lambda, lambdaContext);
    const s = stats(train);
    for (const r of test) held.push({ confidence: predict(w, { ...r.features, prior: priorLogit({ ...s, weights: {} }, r.field, r.finder) }), correct: r.correct, doc: r.doc });
  }
  return held;
}

const logLoss = (vs: Judged[]) => -vs.reduce((s, v) => s + Math.log(Math.min(1 - 1e-9, Math.max(1e-9, v.correct ? v.confidence : 1 - v.confidence))), 0) / vs.length;
const precisionAt = (vs: Judged[], t: number) => { const kept = vs.filter((v) => v.confidence >= t); return { kept: kept.length, precision: kept.filter((v) => v.correct).length / Math.max(1, kept.length), recall: kept.filter((v) => v.correct).length / Math.max(1, vs.filter((v) => v.correct).length) }; };
const report = (label: string, vs: Judged[]) => {
  const at = (t: number) => { const p = precisionAt(vs, t); return `t=${t}: kept ${p.kept}/${vs.length} P ${p.precision.toFixed(3)} R ${p.recall.toFixed(3)}`; };
  console.log(`${label}: ECE ${ece(vs).toFixed(3)} AUROC ${auroc(vs).toFixed(3)} log-loss ${logLoss(vs).toFixed(3)}; ${[0.5, 0.6, 0.7, 0.8, 0.9].map(at).join('; ')}`);
};

// The penalties chosen by held-out log-loss over a small grid.
const grid: Array<[number, number]> = [];
for (const l of [1, 4]) for (const lc of [4, 16, 64]) grid.push([l, lc]);
let best: { l: number; lc: number; loss: number; held: Judged[] } | null = null;
for (const [l, lc] of grid) {
  const held = crossValidated(l, lc);
  const loss = logLoss(held);
  console.log(`lambda ${l}, words ${lc}: held-out log-loss ${loss.toFixed(4)}, AUROC ${auroc(held).toFixed(3)}, ECE ${ece(held).toFixed(3)}`);
  if (!best || loss < best.loss) best = { l, lc, loss, held };
}
const chosen = best!;
report(`cross-validated (lambda ${chosen.l}, words ${chosen.lc})`, chosen.held);
const byLanguage = new Map<string, Judged[]>();
for (const v of chosen.held) byLanguage.set(langOf(v.doc), [...(byLanguage.get(langOf(v.doc)) ?? []), v]);
for (const [lang, vs] of [...byLanguage].sort((a, b) => b[1].length - a[1].length)) {
  if (vs.length >= 40) console.log(`  ${lang}: ${vs.length} values, AUROC ${auroc(vs).toFixed(3)}, ECE ${ece(vs).toFixed(3)}, P@0.5 ${precisionAt(vs, 0.5).precision.toFixed(3)}`);
}

/** The lowest threshold at which the held-out values kept reach the precision target. */
let threshold = 0.5;
for (let t = 0.3; t <= 0.99 + 1e-9; t += 0.01) {
  if (precisionAt(chosen.held, t).precision >= target) { threshold = Math.round(t * 100) / 100; break; }
  threshold = Math.round(t * 100) / 100;
}
const atThreshold = precisionAt(chosen.held, threshold);
console.log(`recommended threshold ${threshold}: held-out precision ${atThreshold.precision.toFixed(3)}, recall ${atThreshold.recall.toFixed(3)} (target ${target})`);

const weights = fit(withPriors(rows, rows), chosen.l, chosen.lc);
const model: EngineModel = { ...stats(rows), weights };
console.log(`${Object.keys(weights).length} weights (${Object.keys(weights).filter(isContext).length} hashed words)`);
if (!argv.includes('--dry-run')) {
  const out: CalibrationModel = {
    fitted: `scripts/calibrate.ts --seed ${seed} on ${sets.length ? sets.join(', ') : 'corpus/training'}: ${rows.length} values from ${docs.length} documents; held-out ECE ${ece(chosen.held).toFixed(3)}, AUROC ${auroc(chosen.held).toFixed(3)}`,
    engines: { local: model, anthropic: current.engines.anthropic },
    recommended: { ...current.recommended, local: threshold },
  };
  const file = fileURLToPath(new URL('../server/models/calibration.json', import.meta.url));
  writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${file}`);
}
