// The document's own currency (segment/document.ts decides it from all its marks), pointed at where the document
// first writes a mark naming it: a code, or a symbol or word (then the value is derived from the mark).
import type { Doc } from '../segment/document.js';
import { findMarks } from '../normalise/currency.js';
import { inText, type Located } from '../fields/located.js';

export function documentCurrency(doc: Doc): Located<string> | null {
  const code = doc.currency;
  if (!code) return null;
  // `$` alone names the document's dollar, whichever it is (`All amounts in Canadian dollars`).
  const m = findMarks(doc.text, doc.reading.marks).find((x) => x.code === code);
  return m ? inText(code, m.index, m.end, m.text !== code) : null;
}
