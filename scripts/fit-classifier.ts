// Fits the offline classifier (server/src/classification/learned/) on the labelled training corpus and writes its
// model as JSON. Deterministic given the corpus and the seed (the seed decides the folds and the order of documents).
//   npx tsx scripts/fit-classifier.ts [--corpus DIR ...] [--seed N] [--folds K] [--lambda 1e-5] [--rate 0.125,0.25] [--epochs N]
//                                     [--out server/models/classifier.json] [--dry-run]
//                                     [--held-out FILE.json]  (each document's held-out probabilities, for study)
// It reports k-fold accuracy on the corpus (folds split by document, stratified by language), by language family and
// by kind; picks the regularisation and the `other` threshold on those folds; then fits on the whole corpus, and scores
// the repository's labelled classification sets (never trained on) with the model as shipped.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FEATURE_BITS, FEATURE_SIZE, featureVector, type SparseVector } from '../server/src/classification/learned/hashed-features.js';
import { decodeModel, probabilities, type ModelFile } from '../server/src/classification/learned/logistic-model.js';
import { labelledSets } from './lib/classify-sets.js';
import { fitLogistic, scores, seeded } from './lib/logistic-fit.js';
import { familyOf, readCorpus, type TrainingDoc } from './lib/training-corpus.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true }, seed: { type: 'string' }, folds: { type: 'string' }, lambda: { type: 'string' },
    epochs: { type: 'string' }, rate: { type: 'string' }, out: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'held-out': { type: 'string' },
  },
});
const corpora = values.corpus ?? ['corpus/training'];
const seed = Number(values.seed ?? 36);
const folds = Number(values.folds ?? 5);
const lambdas = (values.lambda ?? '1e-5').split(',').map(Number);
const epochs = Number(values.epochs ?? 12);
const rates = (values.rate ?? '0.125,0.25').split(',').map(Number);
const out = values.out ?? 'server/models/classifier.json';

export const CLASSES = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'other'];
const OTHER = CLASSES.indexOf('other');

const docs: TrainingDoc[] = corpora.flatMap(readCorpus);
const xs = docs.map((d) => featureVector(d.text));
const ys = docs.map((d) => (CLASSES.includes(d.kind) ? CLASSES.indexOf(d.kind) : OTHER));
console.log(`${docs.length} documents, ${new Set(docs.map((d) => d.language)).size} languages, from ${corpora.join(', ')}`);

// Folds: each language's documents shuffled (seeded), ordered by kind, dealt round the folds in turn.
const rand = seeded(seed);
const fold = new Array<number>(docs.length);
let deal = 0;
const byLanguage = new Map<string, number[]>();
docs.forEach((d, i) => byLanguage.set(d.language, [...(byLanguage.get(d.language) ?? []), i]));
for (const language of [...byLanguage.keys()].sort()) {
  const ids = byLanguage.get(language)!.map((i) => [i, rand()] as const).sort((a, b) => a[1] - b[1]).map(([i]) => i);
  ids.sort((a, b) => ys[a]! - ys[b]!);
  for (const i of ids) fold[i] = deal++ % folds;
}

/** The answer under a threshold: the most likely kind, or `other` below it. */
const answer = (p: number[], threshold: number) => { const best = p.indexOf(Math.max(...p)); return best !== OTHER && p[best]! < threshold ? OTHER : best; };
const accuracy = (ps: number[][], threshold: number, ids: number[] = ps.map((_, i) => i)) => ids.filter((i) => answer(ps[i]!, threshold) === ys[i]).length / Math.max(1, ids.length);

function outOfFold(lambda: number, learningRate: number): number[][] {
  const ps = new Array<number[]>(docs.length);
  for (let f = 0; f < folds; f++) {
    const train = docs.map((_, i) => i).filter((i) => fold[i] !== f);
    const model = fitLogistic(train.map((i) => xs[i]!), train.map((i) => ys[i]!), { classes: CLASSES.length, size: FEATURE_SIZE, lambda, epochs, seed, learningRate });
    docs.forEach((_, i) => { if (fold[i] === f) ps[i] = scores(model.weights, model.bias, xs[i]!, CLASSES.length); });
  }
  return ps;
}

/**
 * The threshold below which a document is `other`: the largest whose held-out accuracy is within one standard error of
 * the best (the one-standard-error rule). The corpus holds documents only, so accuracy alone would pick a threshold so
 * low that a cover note or `Thanks!` got a kind; among thresholds the folds cannot tell apart, the surer one.
 */
const MIN_KIND_CONFIDENCE = 0.5;
function bestThreshold(ps: number[][]): { threshold: number; accuracy: number } {
  const grid = Array.from({ length: 76 }, (_, i) => 0.15 + i * 0.01);
  const acc = grid.map((t) => accuracy(ps, t));
  const top = Math.max(...acc);
  const se = Math.sqrt((top * (1 - top)) / ps.length);
  const i = acc.map((a, k) => (a >= top - se ? k : -1)).reduce((a, b) => Math.max(a, b), -1);
  // Never under the contract's own rule (spec/models/classify.tsp: a kind is answered with a confidence of at least
  // 0.5, else `other`): a fold-chosen 0.39 gave a two-line cover note `job-posting` at 0.45.
  const threshold = Math.max(MIN_KIND_CONFIDENCE, Math.round(grid[i]! * 100) / 100);
  return { threshold, accuracy: accuracy(ps, threshold) };
}

let chosen = { lambda: lambdas[0]!, learningRate: rates[0]!, threshold: 0.5, accuracy: -1, ps: [] as number[][] };
for (const lambda of lambdas) {
  for (const learningRate of rates) {
    const ps = outOfFold(lambda, learningRate);
    const best = bestThreshold(ps);
    console.log(`lambda ${lambda}, rate ${learningRate}: ${folds}-fold accuracy ${best.accuracy.toFixed(3)} at threshold ${best.threshold} (the most likely kind always: ${accuracy(ps, 0).toFixed(3)})`);
    if (best.accuracy > chosen.accuracy) chosen = { lambda, learningRate, ...best, ps };
  }
}

const report = (title: string, key: (d: TrainingDoc) => string) => {
  console.log(`\n${title}`);
  const groups = new Map<string, number[]>();
  docs.forEach((d, i) => groups.set(key(d), [...(groups.get(key(d)) ?? []), i]));
  for (const [name, ids] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${name.padEnd(36)} ${String(ids.length).padStart(4)}  ${accuracy(chosen.ps, chosen.threshold, ids).toFixed(3)}`);
  }
};
console.log(`\nchosen: lambda ${chosen.lambda}, rate ${chosen.learningRate}, threshold ${chosen.threshold}, ${folds}-fold accuracy ${chosen.accuracy.toFixed(3)}`);
report('by language family (held-out folds):', (d) => familyOf(d.language));
report('by language (held-out folds):', (d) => d.language);
report('by kind (held-out folds):', (d) => (CLASSES.includes(d.kind) ? d.kind : 'other'));
const wrong = docs.map((d, i) => ({ d, i })).filter(({ i }) => answer(chosen.ps[i]!, chosen.threshold) !== ys[i]);
console.log(`\nheld-out mistakes (${wrong.length}):`);
for (const { d, i } of wrong) console.log(`  ${d.id} (${d.language}): ${d.kind} -> ${CLASSES[answer(chosen.ps[i]!, chosen.threshold)]} (${Math.max(...chosen.ps[i]!).toFixed(2)})`);

if (values['held-out']) writeFileSync(values['held-out'], JSON.stringify(docs.map((d, i) => ({ id: d.id, kind: CLASSES[ys[i]!], language: d.language, fold: fold[i], p: chosen.ps[i] }))));

// The model as shipped: fitted on every document, weights quantised to bytes.
const fitted = fitLogistic(xs, ys, { classes: CLASSES.length, size: FEATURE_SIZE, lambda: chosen.lambda, epochs, seed, learningRate: chosen.learningRate });
let max = 0;
for (const w of fitted.weights) max = Math.max(max, Math.abs(w));
const scale = max / 127;
const bytes = Int8Array.from(fitted.weights, (w) => Math.round(w / scale));
const file: ModelFile = {
  about: {
    what: 'The offline classifier: multinomial logistic regression over hashed character n-grams, words and title words (hashed-features.ts). Fitted by scripts/fit-classifier.ts; do not edit by hand.',
    documents: docs.length, languages: new Set(docs.map((d) => d.language)).size, seed, folds, lambda: chosen.lambda, learningRate: chosen.learningRate, epochs,
    heldOutAccuracy: Math.round(chosen.accuracy * 1000) / 1000,
  },
  classes: CLASSES, featureBits: FEATURE_BITS, scale, weights: Buffer.from(bytes.buffer).toString('base64'),
  bias: Array.from(fitted.bias, (b) => Math.round(b * 1e6) / 1e6), threshold: chosen.threshold,
};
const shipped = decodeModel(file);
console.log('\nthe repository\'s labelled sets (never trained on), model as shipped:');
for (const [name, set] of labelledSets()) {
  const right = set.filter((d) => CLASSES[answer(probabilities(shipped, featureVector(d.text)), shipped.threshold)] === d.kind);
  console.log(`  ${name.padEnd(12)} ${right.length}/${set.length}  ${(right.length / Math.max(1, set.length)).toFixed(3)}`);
}
if (!values['dry-run']) {
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  console.log(`\nwrote ${out}`);
}
