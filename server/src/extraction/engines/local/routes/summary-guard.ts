// A whole figure after a summary label is that label's field: the ranker's answer for the total is not a bare `105`
// written after `Subtotal` (a sheet's number cells that did not add up leave the rules without an answer, and the
// ranker took the subtotal's cell for the total). Figures with decimals or a currency mark are left to the ranker:
// `TOTAAL  26,55  3,38` holds the tax in its last column.
import { finder, type Finder } from '../fields/finder.js';
import { isLocated } from '../fields/located.js';
import { findAmounts } from '../normalise/money.js';
import type { Doc } from '../segment/document.js';
import { summaryFieldAt } from './totals.js';

export function labelledAs<C extends { doc: Doc }, T>(field: 'subtotal' | 'tax' | 'total', inner: Finder<C, T>): Finder<C, T> {
  return finder<C, T>(inner.name, (c) => {
    const answer = inner.find(c);
    if (!isLocated(answer) || !answer.span) return answer;
    const written = findAmounts(c.doc.text.slice(answer.span[0], answer.span[1]), c.doc.reading)[0];
    if (!written || written.decimals || written.currency) return answer;
    const named = summaryFieldAt(c.doc, answer.span[0]);
    return named !== null && named !== field ? null : answer;
  });
}
