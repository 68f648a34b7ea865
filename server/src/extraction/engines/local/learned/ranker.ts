// Finders propose, a model chooses: for a field the rules did not answer, every candidate of its kind in the document
// is scored by the fitted ranker (ranker-model.ts) from what surrounds it, and the best is the answer when the model
// is sure enough. It learns label words in every language of the training corpus rather than reading them from lists.
import type { Doc } from '../segment/document.js';
import { inText, type Located } from '../fields/located.js';
import { isClaimed, rulesAlone } from '../fields/claims.js';
import { candidatesOf, type Candidate, type CandidateKind } from './candidates.js';
import { candidateFeatureStrings, type FieldSpec } from './candidate-features.js';
import { probability, rankerModel, type RankerModel } from './ranker-model.js';

const cache = new WeakMap<Doc, Map<CandidateKind, Candidate[]>>();

/** The candidates of a kind in a document, found once per document. */
export function cachedCandidates(doc: Doc, kind: CandidateKind): Candidate[] {
  let byKind = cache.get(doc);
  if (!byKind) cache.set(doc, (byKind = new Map()));
  let list = byKind.get(kind);
  if (!list) byKind.set(kind, (list = candidatesOf(doc, kind)));
  return list;
}

export interface Ranked { candidate: Candidate; p: number }

/** Every candidate of the kind scored for the field, best first. */
export function rank(doc: Doc, kind: CandidateKind, field: FieldSpec, model: Pick<RankerModel, 'buckets' | 'weights'>): Ranked[] {
  const all = cachedCandidates(doc, kind);
  return all.map((candidate) => ({ candidate, p: probability(model, candidateFeatureStrings(doc, candidate, all, field)) })).sort((a, b) => b.p - a.p);
}

/** The ranker's answer for a field: its best candidate where it is sure enough, located where it stands; else null. */
export function rankedValue(doc: Doc, kind: CandidateKind, field: FieldSpec): Located<number | string> | null {
  const model = rankerModel();
  if (!model || rulesAlone(doc)) return null;
  const best = rank(doc, kind, field, model).find((r) => !isClaimed(doc, doc.toSource(r.candidate.start), doc.toSource(r.candidate.end)));
  const threshold = model.thresholds?.[field.key === 'custom' ? `custom:${kind}` : field.key] ?? model.threshold;
  if (!best || best.p < threshold) return null;
  return inText(best.candidate.value, best.candidate.start, best.candidate.end);
}
