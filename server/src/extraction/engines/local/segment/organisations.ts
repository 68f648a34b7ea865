// How organisation names end.
import { dropParens, trimPunct } from './text.js';

/** A name ending in a legal form (`Acme B.V.`, `Nordlicht GmbH`, `NORTHGATE HOUSING CO-OPERATIVE LTD`): an organisation. */
export const LEGAL_FORM_END = /\b(?:Inc|LLC|Ltd|LTD|Limited|LIMITED|GmbH|GMBH|AG|AB|ApS|Oy|BV|B\.V|NV|N\.V|SA|S\.A|SAS|SARL|S\.r\.l|SpA|S\.p\.A|Pty|PLC|plc|LLP|Corp|Corporation|INC|LLC)\.?$/;

/**
 * A party's name without what the document says after it: `Red Mesa Properties LLC, 900 Camelback Rd, ...`,
 * `Kovac Digital GmbH & Co. KG, of Hamburg`, `Acme Ltd, a company registered in England`.
 */
export function partyName(s: string): string {
  // The name ends before its description or address (`Brightwater BV, Kortrijksesteenweg 1090, 9051 Gent`), or an
  // e-mail address in angle brackets.
  const cut = dropParens(s).split(/,\s*(?:of|having|with|whose|located|registered|residing|incorporated|organi[sz]ed|at|a|an|the)\b|,\s*(?=\d|(?:unit|suite|floor|building|po box)\b)|,\s+(?=[^,]*\d)(?!(?:Inc|LLC|Ltd|GmbH|AG|BV|NV|SA|AB)\b)|\s+<|\s+\(/i)[0]!;
  return trimPunct(cut);
}
