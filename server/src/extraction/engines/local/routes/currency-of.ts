// The document's own currency (segment/document.ts decides it from all its marks), pointed at where the document
// first writes a mark naming it: a code, or a symbol or word (then the value is derived from the mark).
import type { Doc } from '../segment/document.js';
import { CODE_RE_SOURCE, SYMBOL_RE_SOURCE, currencyIn } from '../normalise/currency.js';
import { inText, type Located } from '../fields/located.js';

const MARK = new RegExp(String.raw`(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])|${SYMBOL_RE_SOURCE}|\b(?:euros?|dollars?|pounds? sterling|sterling|francs?|ringgit)\b|(?<![A-Za-z])RM(?=\s?\d)`, 'giu');

export function documentCurrency(doc: Doc): Located<string> | null {
  const code = doc.currency;
  if (!code) return null;
  MARK.lastIndex = 0;
  for (let m = MARK.exec(doc.text); m; m = MARK.exec(doc.text)) {
    // `$` alone names the document's dollar, whichever it is (`All amounts in Canadian dollars`).
    const names = currencyIn(m[0]) === code || (m[0] === '$' && /D$/.test(code));
    if (names) return inText(code, m.index, m.index + m[0].length, m[0] !== code);
  }
  return null;
}
