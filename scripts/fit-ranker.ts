// Fits the offline engine's candidate ranker (server/models/ranker.json) on the training corpus and reports how it
// does on held-out folds (split by document, stratified by language).
//   npx tsx scripts/fit-ranker.ts [--corpus DIR ...] [--seed N] [--target 0.9] [--dry-run]
// For every labelled document and every field of the ranker's table (learned/field-specs.ts), and every number, date
// or code property of a custom schema, each candidate of the field's kind is a row: its feature strings hashed
// (learned/candidate-features.ts) and whether its value is the label's. The answer threshold is the lowest at which the
// ranker's held-out answers (its best candidate per field and document) reach the precision target.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { segment } from '../server/src/extraction/engines/local/segment/document.js';
import { cachedCandidates } from '../server/src/extraction/engines/local/learned/ranker.js';
import { candidateFeatureStrings, type FieldSpec } from '../server/src/extraction/engines/local/learned/candidate-features.js';
import type { CandidateKind, Candidate } from '../server/src/extraction/engines/local/learned/candidates.js';
import { RANKED_FIELDS } from '../server/src/extraction/engines/local/learned/field-specs.js';
import { customFieldsOf } from '../server/src/extraction/engines/local/learned/custom-fields.js';
import { bucketsOf, type RankerModel } from '../server/src/extraction/engines/local/learned/ranker-model.js';
import { choiceProbabilities, fitChoice, foldsByLanguage, languagesOf, type SparseRow } from './lib/logistic.js';

const argv = process.argv.slice(2);
const opt = (name: string) => argv.flatMap((a, i) => (argv[i - 1] === name ? [a] : []));
const corpora = opt('--corpus').length ? opt('--corpus') : [fileURLToPath(new URL('../corpus/training', import.meta.url))];
const seed = Number(opt('--seed')[0] ?? 36);
const target = Number(opt('--target')[0] ?? 0.9);
const BUCKETS = 1 << 18;
const FOLDS = 5;

/** The value at a JSON Pointer of a label (a renewal label holds plain values). */
const valueAt = (label: unknown, pointer: string) => pointer.split('/').slice(1).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), label);

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s\-./_#]+/g, '');
/** Whether a candidate holds the label's value, by the scorer's rules for its kind. */
function matches(kind: CandidateKind, candidate: Candidate, label: unknown): boolean {
  if (label === null || label === undefined) return false;
  if (kind === 'money' || kind === 'count') return typeof label === 'number' && Math.abs((candidate.value as number) - label) < 0.005;
  if (kind === 'date') return candidate.value === label;
  return typeof label === 'string' && fold(String(candidate.value)) === fold(label);
}

/** One field of one document: its candidates' rows and the label. */
interface Query { doc: string; field: string; rows: SparseRow[]; values: Candidate[]; label: unknown; kind: CandidateKind }

const queries: Query[] = [];
for (const dir of corpora) {
  for (const route of readdirSync(dir).filter((r) => existsSync(join(dir, r)) && !r.includes('.'))) {
    for (const file of readdirSync(join(dir, route)).filter((f) => f.endsWith('.txt')).sort()) {
      const slug = file.slice(0, -4);
      const labelFile = join(dir, route, `${slug}.json`);
      if (!existsSync(labelFile)) continue;
      const doc = segment(readFileSync(join(dir, route, file), 'utf8'));
      const label = JSON.parse(readFileSync(labelFile, 'utf8')) as unknown;
      const fields: Array<{ spec: FieldSpec; kind: CandidateKind; pointer: string }> = [];
      if (route === 'custom') {
        const schemaFile = join(dir, route, `${slug}.schema.json`);
        if (!existsSync(schemaFile)) continue;
        for (const f of customFieldsOf(JSON.parse(readFileSync(schemaFile, 'utf8')))) fields.push({ spec: { key: 'custom', words: f.words }, kind: f.kind, pointer: f.pointer });
      } else {
        for (const [key, spec] of Object.entries(RANKED_FIELDS)) {
          if (!key.startsWith(`${route}:`)) continue;
          fields.push({ spec: { key, words: spec.words }, kind: spec.kind, pointer: key.slice(route.length + 1) });
        }
      }
      for (const { spec, kind, pointer } of fields) {
        const all = cachedCandidates(doc, kind);
        if (all.length === 0) continue;
        const truth = valueAt(label, pointer);
        const rows = all.map((c) => ({ idx: bucketsOf(candidateFeatureStrings(doc, c, all, spec), BUCKETS), val: [] as number[], y: matches(kind, c, truth) ? 1 : 0 }));
        for (const r of rows) r.val = r.idx.map(() => 1);
        // A stated value no candidate holds teaches nothing about choosing; a field the document does not state teaches abstaining.
        if (truth !== null && truth !== undefined && !rows.some((r) => r.y === 1)) continue;
        queries.push({ doc: `${dir}:${route}/${slug}`, field: spec.key === 'custom' ? `custom:${kind}` : spec.key, rows, values: all, label: truth, kind });
      }
    }
  }
}
const docs = [...new Set(queries.map((q) => q.doc))];
const languages = languagesOf(corpora);
const langOf = (d: string) => languages.get(d) ?? 'unknown';
const foldOf = foldsByLanguage(docs, langOf, FOLDS, seed);
console.log(`${queries.length} fields (${queries.filter((q) => q.label !== null && q.label !== undefined).length} stated) from ${docs.length} documents, ${queries.reduce((n, q) => n + q.rows.length, 0)} candidates`);

const LAMBDA = Number(opt('--lambda')[0] ?? 2);
/** Several candidates may hold the right value (a total written twice): the first is the answer to learn. */
const fit = (qs: Query[]) => fitChoice(qs.map((q) => ({ rows: q.rows, answer: q.rows.findIndex((r) => r.y === 1) })), BUCKETS, LAMBDA);

/** The ranker's answer per held-out field: its best candidate and probability, and whether it is right. */
type Held = { p: number; right: boolean; stated: boolean; field: string; doc: string };
const held: Held[] = [];
for (let f = 0; f < FOLDS; f++) {
  const w = fit(queries.filter((q) => foldOf.get(q.doc) !== f));
  for (const q of queries.filter((x) => foldOf.get(x.doc) === f)) {
    const probs = choiceProbabilities(w, q.rows);
    // Candidates holding the same value pool their probability: the answer is a value, wherever it stands.
    const byValue = new Map<unknown, { p: number; i: number }>();
    probs.forEach((p, i) => { const k = q.values[i]!.value; const cur = byValue.get(k); byValue.set(k, { p: (cur?.p ?? 0) + p, i: cur && probs[cur.i]! >= p ? cur.i : i }); });
    const best = [...byValue.values()].sort((a, b) => b.p - a.p)[0]!;
    held.push({ p: best.p, right: q.rows[best.i]!.y === 1, stated: q.label !== null && q.label !== undefined, field: q.field, doc: q.doc });
  }
}
const at = (t: number, of = held) => {
  const answered = of.filter((h) => h.p >= t);
  const right = answered.filter((h) => h.right).length;
  return { answered: answered.length, precision: right / Math.max(1, answered.length), recall: right / Math.max(1, of.filter((h) => h.stated).length) };
};
for (const t of [0.3, 0.5, 0.7, 0.9]) { const r = at(t); console.log(`held-out t=${t}: answered ${r.answered}/${held.length}, precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)}`); }
let threshold = 0.95;
for (let t = 0.3; t <= 0.95 + 1e-9; t += 0.01) if (at(t).precision >= target) { threshold = Math.round(t * 100) / 100; break; }
const chosen = at(threshold);
console.log(`threshold ${threshold}: held-out precision ${chosen.precision.toFixed(3)}, recall ${chosen.recall.toFixed(3)} (target ${target})`);
const byField = new Map<string, Held[]>();
for (const h of held) byField.set(h.field, [...(byField.get(h.field) ?? []), h]);
/**
 * Each field's own threshold: the lowest at which its held-out answers reach the target with at least MIN_ANSWERS of
 * them (a precision measured on fewer says little); a field that never does is not answered by the ranker at all.
 */
const MIN_ANSWERS = 8;
const CUSTOM_TARGET = Number(opt('--custom-target')[0] ?? 0.97);
const thresholds: Record<string, number> = {};
for (const [field, hs] of [...byField].sort()) {
  let t = 1.01;
  // A caller's property is named by its caller, not learned as a field of its own: its answers are held higher.
  const wanted = field.startsWith('custom:') ? Math.max(target, CUSTOM_TARGET) : target;
  for (let c = 0.5; c <= 0.99 + 1e-9; c += 0.01) { const r = at(c, hs); if (r.answered >= MIN_ANSWERS && r.precision >= wanted) { t = Math.round(c * 100) / 100; break; } }
  thresholds[field] = t;
  const r = at(t, hs);
  console.log(`  ${field}: ${hs.length} fields, threshold ${t}, answered ${r.answered}, precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)}`);
}
const perField = held.filter((h) => h.p >= (thresholds[h.field] ?? 1.01));
console.log(`per-field thresholds: answered ${perField.length}, precision ${(perField.filter((h) => h.right).length / Math.max(1, perField.length)).toFixed(3)}, recall ${(perField.filter((h) => h.right).length / Math.max(1, held.filter((h) => h.stated).length)).toFixed(3)}`);
const byLang = new Map<string, Held[]>();
for (const h of held) byLang.set(langOf(h.doc), [...(byLang.get(langOf(h.doc)) ?? []), h]);
for (const [lang, hs] of [...byLang].sort((a, b) => b[1].length - a[1].length)) { const r = at(threshold, hs); console.log(`  ${lang}: ${hs.length} fields, precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)}`); }

if (!argv.includes('--dry-run')) {
  const w = fit(queries);
  const weights: Record<string, number> = {};
  w.forEach((x, j) => { const r = Math.round(x * 1000) / 1000; if (r !== 0) weights[j] = r; });
  const model: RankerModel = {
    fitted: `scripts/fit-ranker.ts --seed ${seed} on ${docs.length} documents (${queries.length} fields); held-out precision ${chosen.precision.toFixed(3)}, recall ${chosen.recall.toFixed(3)} at ${threshold}`,
    buckets: BUCKETS,
    threshold,
    thresholds,
    weights,
  };
  const file = fileURLToPath(new URL('../server/models/ranker.json', import.meta.url));
  writeFileSync(file, `${JSON.stringify(model)}\n`);
  console.log(`wrote ${file} (${Object.keys(weights).length} weights)`);
}
