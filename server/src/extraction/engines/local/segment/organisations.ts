// How organisation names end (the legal forms themselves are in ../lexicon.ts).
import { dropParens, trimPunct } from './text.js';
import { LEGAL_FORM_STRONG_SOURCE } from '../lexicon.js';

/** Where a party's name ends: before its description, address or e-mail; a comma before a legal form is the name's. */
const NAME_END = new RegExp(String.raw`,\s*(?:of|having|with|whose|located|registered|residing|incorporated|organi[sz]ed|at|a|an|the)\b|,\s*(?=\d|(?:unit|suite|floor|building|po box)\b)|,\s+(?=[^,]*\d)(?!${LEGAL_FORM_STRONG_SOURCE}\b)|\s+<|\s+\(`, 'i');


/**
 * A party's name without what the document says after it: `Red Mesa Properties LLC, 900 Camelback Rd, ...`,
 * `Kovac Digital GmbH & Co. KG, of Hamburg`, `Acme Ltd, a company registered in England`.
 */
export function partyName(s: string): string {
  // The name ends before its description or address (`Brightwater BV, Kortrijksesteenweg 1090, 9051 Gent`), or an
  // e-mail address in angle brackets.
  const cut = dropParens(s).split(NAME_END)[0]!;
  return trimPunct(cut);
}
