// The spans of the document an answer already stands on. One place in a document states one fact: the learned ranker
// never answers a field with words another field was read from (a policy's start date is not also its end date).
import type { Doc } from '../segment/document.js';

const claims = new WeakMap<Doc, Array<[number, number]>>();

/** Marks `[start, end)` (offsets in the document as sent) as the place of an answer. */
export function claim(doc: Doc, start: number, end: number): void {
  let list = claims.get(doc);
  if (!list) claims.set(doc, (list = []));
  list.push([start, end]);
}

/** Whether `[start, end)` (offsets in the document as sent) overlaps an answer's place. */
export const isClaimed = (doc: Doc, start: number, end: number): boolean => (claims.get(doc) ?? []).some(([s, e]) => s < end && start < e);

const rulesOnly = new WeakSet<Doc>();

/**
 * Runs `read` twice: first with the rules alone, so every place they read is claimed, then in full, where the ranker
 * answers only what the rules left and never with words a later field's rule reads.
 */
export function rulesFirst<T>(doc: Doc, read: () => T): T {
  rulesOnly.add(doc);
  try {
    read();
  } finally {
    rulesOnly.delete(doc);
  }
  return read();
}

/** Whether this pass reads with the rules alone (the ranker stays silent). */
export const rulesAlone = (doc: Doc): boolean => rulesOnly.has(doc);
