// The ranker as a finder: the last of a field's finders, so it answers only where the rules found nothing, and its
// answers carry their own name (`learned ranker`) into the evidence, where their measured precision is their prior.
import { finder, type Finder, type Grounded } from '../fields/finder.js';
import { inText, isLocated, type Located } from '../fields/located.js';
import type { Doc } from '../segment/document.js';
import { RANKED_FIELDS, type RankedFieldKey } from './field-specs.js';
import { rankedValue } from './ranker.js';

export const LEARNED = 'learned ranker';

/** A fixed route's field answered by the ranker. */
export function learned<C extends { doc: Doc }, T>(key: RankedFieldKey): Finder<C, T> {
  const spec = RANKED_FIELDS[key];
  return finder<C, T>(LEARNED, ({ doc }) => rankedValue(doc, spec.kind, { key, words: spec.words }) as Located<T> | null);
}

/** A renewal member answered by the ranker: the value, with its line as the quote. */
export function learnedGrounded<C extends { doc: Doc }, T>(key: RankedFieldKey): Finder<C, Grounded<T>> {
  const spec = RANKED_FIELDS[key];
  return finder<C, Grounded<T>>(LEARNED, ({ doc }) => {
    const found = rankedValue(doc, spec.kind, { key, words: spec.words });
    if (!isLocated(found) || !found.span) return null;
    const [start, end] = found.span;
    const lineStart = doc.text.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = doc.text.indexOf('\n', end);
    const to = lineEnd < 0 ? doc.text.length : lineEnd;
    const quote = doc.text.slice(lineStart, to).trim();
    if (!quote || quote.length > 300) return null;
    const from = lineStart + doc.text.slice(lineStart, to).indexOf(quote);
    return inText({ value: found.value as T, sourceQuote: quote }, from, from + quote.length);
  });
}
