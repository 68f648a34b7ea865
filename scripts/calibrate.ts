// Fits the offline engine's confidence model (server/src/extraction/evidence/calibration-model.ts) on labelled documents
// the rules were not written against, and reports how well calibrated it is, by 5-fold cross-validation over documents.
//   npx tsx scripts/calibrate.ts [--set DIR ...] [--dry-run]
// Each value the engine returns is a row: its features (evidence/features.ts) and whether it is right by the scorer's
// rules. A finder's prior is its record on the other documents (never its own: leave-one-document-out), shrunk towards
// its field's and the engine's; the features' weights come from an L2-regularised logistic regression.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CalibrationModel, EngineModel } from '../server/src/extraction/evidence/confidence.js';
import { CALIBRATION } from '../server/src/extraction/evidence/calibration-model.js';
import { priorLogit } from '../server/src/extraction/evidence/confidence.js';
import { auroc, ece, trustOfSet, type JudgedValue } from '../server/test/local-engine/accuracy/trust.js';
import { SETS } from '../server/test/local-engine/accuracy/sets.js';

const argv = process.argv.slice(2);
const sets = argv.flatMap((a, i) => (argv[i - 1] === '--set' ? [a] : []));
const dirs = sets.length ? sets.map((s) => SETS[s] ?? s) : [SETS.cal8!];

type Row = JudgedValue;
const rows: Row[] = dirs.flatMap((d) => trustOfSet(d, { model: CALIBRATION.engines.local }).flatMap((doc) => doc.values));
const docs = [...new Set(rows.map((r) => r.doc))];
console.log(`${rows.length} values from ${docs.length} documents (${dirs.join(', ')}); right ${(rows.filter((r) => r.correct).length / rows.length).toFixed(3)}`);

/** Right and wrong counts of each finder and field over `rows`. */
function stats(of: Row[]): Omit<EngineModel, 'weights'> {
  const finders: Record<string, [number, number]> = {}, fields: Record<string, [number, number]> = {};
  const add = (m: Record<string, [number, number]>, k: string, ok: boolean) => { m[k] ??= [0, 0]; m[k]![ok ? 0 : 1]++; };
  for (const r of of) { add(fields, r.field, r.correct); if (r.finder) add(finders, r.finder, r.correct); }
  const base = of.length ? of.filter((r) => r.correct).length / of.length : 0.5;
  return { finders, fields, base };
}

/** The rows' features with each one's prior from the other documents' record only. */
function withPriors(of: Row[], from: Row[]): { x: Record<string, number>; y: number }[] {
  const byDoc = new Map<string, Row[]>();
  for (const r of from) byDoc.set(r.doc, [...(byDoc.get(r.doc) ?? []), r]);
  const cache = new Map<string, Omit<EngineModel, 'weights'>>();
  return of.map((r) => {
    if (!cache.has(r.doc)) cache.set(r.doc, stats(from.filter((o) => o.doc !== r.doc)));
    const s = cache.get(r.doc)!;
    return { x: { ...r.features, prior: priorLogit({ ...s, weights: {} }, r.field, r.finder) }, y: r.correct ? 1 : 0 };
  });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** L2-regularised logistic regression by Newton's method (the bias is not penalised). */
function fit(data: { x: Record<string, number>; y: number }[], lambda = Number(process.env.CAL_LAMBDA ?? 1)): Record<string, number> {
  const names = [...new Set(data.flatMap((d) => Object.keys(d.x)))].sort();
  const n = names.length;
  let w = new Array<number>(n).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(n).fill(0);
    const hess = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const d of data) {
      const x = names.map((k) => d.x[k] ?? 0);
      const p = sigmoid(x.reduce((s, xi, i) => s + xi * w[i]!, 0));
      for (let i = 0; i < n; i++) {
        grad[i]! += (p - d.y) * x[i]!;
        for (let j = 0; j < n; j++) hess[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 0; i < n; i++) if (names[i] !== 'bias') { grad[i]! += lambda * w[i]!; hess[i]![i]! += lambda; }
    for (let i = 0; i < n; i++) hess[i]![i]! += 1e-6;
    const step = solve(hess, grad);
    w = w.map((wi, i) => wi - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return Object.fromEntries(names.map((k, i) => [k, Math.round(w[i]! * 1e4) / 1e4]));
}

/** Solves A x = b (Gaussian elimination with partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) x[r] = (m[r]![n]! - m[r]!.slice(r + 1, n).reduce((s, v, k) => s + v * x[r + 1 + k]!, 0)) / m[r]![r]!;
  return x;
}

const predict = (w: Record<string, number>, x: Record<string, number>) => sigmoid(Object.entries(x).reduce((s, [k, v]) => s + (w[k] ?? 0) * v, 0));

// 5-fold cross-validation over documents: fit on four folds, predict the fifth.
const folds = 5;
const held: { confidence: number; correct: boolean }[] = [];
for (let f = 0; f < folds; f++) {
  const test = new Set(docs.filter((_, i) => i % folds === f));
  const train = rows.filter((r) => !test.has(r.doc));
  const w = fit(withPriors(train, train));
  const s = stats(train);
  for (const r of rows.filter((x) => test.has(x.doc))) {
    const x = { ...r.features, prior: priorLogit({ ...s, weights: {} }, r.field, r.finder) };
    held.push({ confidence: predict(w, x), correct: r.correct });
  }
}
const report = (label: string, vs: { confidence: number; correct: boolean }[]) => {
  const at = (t: number) => { const kept = vs.filter((v) => v.confidence >= t); return `t=${t}: kept ${kept.length}/${vs.length} precision ${(kept.filter((v) => v.correct).length / Math.max(1, kept.length)).toFixed(3)}`; };
  console.log(`${label}: ECE ${ece(vs).toFixed(3)} AUROC ${auroc(vs).toFixed(3)}; ${[0.5, 0.6, 0.7, 0.8, 0.9].map(at).join('; ')}`);
};
report('cross-validated', held);

const weights = fit(withPriors(rows, rows));
const model: EngineModel = { ...stats(rows), weights };
console.log('weights', JSON.stringify(weights));
if (!argv.includes('--dry-run')) {
  const out: CalibrationModel = {
    fitted: `scripts/calibrate.ts on ${sets.length ? sets.join(', ') : 'cal8'}: ${rows.length} values from ${docs.length} documents`,
    engines: { local: model, anthropic: CALIBRATION.engines.anthropic },
  };
  const file = fileURLToPath(new URL('../server/src/extraction/evidence/calibration-model.ts', import.meta.url));
  writeFileSync(file, `// Written by scripts/calibrate.ts: do not edit by hand. Refit with \`npx tsx scripts/calibrate.ts\`.\nimport type { CalibrationModel } from './confidence.js';\n\nexport const CALIBRATION: CalibrationModel = ${JSON.stringify(out, null, 2)};\n`);
  console.log(`wrote ${file}`);
}
