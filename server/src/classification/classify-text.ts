// The offline classifier: a document's kind from a model fitted on the labelled training corpus
// (scripts/fit-classifier.ts), shipped as data (server/models/classifier.json). The model
// reads hashed character n-grams, words and title words (learned/hashed-features.ts), so the words of every language
// of the corpus are learned rather than listed; below its threshold, fitted on held-out folds, a document is `other`.
import { readFileSync } from 'node:fs';
import { FEATURE_CHARS, featureVector } from './learned/hashed-features.js';
import { decodeModel, probabilities, type LogisticModel, type ModelFile } from './learned/logistic-model.js';

export type Kind = 'invoice' | 'receipt' | 'contract' | 'job-posting' | 'meeting-notes' | 'renewal';
export type Label = Kind | 'other';

export const KINDS: readonly Kind[] = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal'];

export interface KindScore {
  kind: Label;
  confidence: number;
}

export interface Classified {
  kind: Label;
  confidence: number;
  /** The other labels weighed, most likely first (at most three). */
  alternatives: KindScore[];
}

/** What the classifier reads of a document: its head, where titles and labels are (a long contract is decided by its first pages). */
export const CLASSIFY_CHARS = FEATURE_CHARS;
/** The least confidence a model classifier (Claude's) answers a kind with; the offline model has its own, fitted threshold. */
export const MIN_CONFIDENCE = 0.5;

const MODEL_FILE = new URL('../../models/classifier.json', import.meta.url);
let loaded: LogisticModel | undefined;
/** The fitted model, read on first use. */
export function classifierModel(): LogisticModel {
  loaded ??= decodeModel(JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as ModelFile);
  return loaded;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Each label's probability for a text, most likely first. */
export function rankLabels(text: string): KindScore[] {
  const model = classifierModel();
  const p = probabilities(model, featureVector(text));
  return model.classes.map((kind, i) => ({ kind: kind as Label, confidence: p[i]! })).sort((a, b) => b.confidence - a.confidence);
}

/**
 * The kind of a document: the model's most likely kind when it is among `kinds` and at least as likely as the model's
 * threshold; otherwise `other`.
 */
export function classifyText(text: string, kinds: readonly Kind[] = KINDS): Classified {
  const ranked = rankLabels(text);
  const best = ranked[0]!;
  let answer: KindScore;
  if (best.kind !== 'other' && kinds.includes(best.kind) && best.confidence >= classifierModel().threshold) answer = best;
  else if (best.kind === 'other') answer = best;
  // Not confident, or a kind not asked for: `other`, as sure as the best kind was unsure (or as sure, when not asked for).
  else answer = { kind: 'other', confidence: kinds.includes(best.kind as Kind) ? 1 - best.confidence : best.confidence };
  return {
    kind: answer.kind,
    confidence: round2(answer.confidence),
    alternatives: ranked.filter((r) => r.kind !== answer.kind).slice(0, 3).map((r) => ({ kind: r.kind, confidence: round2(r.confidence) })),
  };
}
