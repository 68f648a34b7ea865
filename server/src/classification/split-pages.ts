import { classifyText, type Classified } from './classify-text.js';
import { isProse, titleWeight } from './page-titles.js';

/** A run of pages holding one document: page indexes from 0, both ends included. */
export interface Segment {
  from: number;
  to: number;
}

/** Evidence, in the classifier's cue weights, that a page starts a document of its own. */
const START_THRESHOLD = 5;

const nonEmpty = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

/** `Page 2 of 3`, `Seite 2 von 3`, `Page 2/3`, `2 / 3` alone on a line: the page's number within its document. */
function pageNumber(lines: string[]): { n: number; of: number } | null {
  for (const line of lines) {
    const m = /\b(?:page|seite|p[áa]gina|pagina|pag\.|p\.)\s*(\d{1,3})\s*(?:of|von|de|di|\/|sur)\s*(\d{1,3})\b/i.exec(line)
      ?? (line.length <= 12 ? /^-?\s*(\d{1,3})\s*\/\s*(\d{1,3})\s*-?$/.exec(line) : null);
    if (m && Number(m[1]) <= Number(m[2])) return { n: Number(m[1]), of: Number(m[2]) };
  }
  return null;
}

/** A letterhead: a short name line with no digits, then an address (a number and a street or a postcode) right under it. */
function letterhead(lines: string[]): boolean {
  const [first, ...next] = lines;
  if (!first || first.length > 60 || /\d/.test(first) || /[.:;,]$/.test(first) || isProse(first)) return false;
  return next.slice(0, 3).some((l) => /\d/.test(l) && (
    /\b(?:street|st\.|road|rd\.|avenue|ave\.?|blvd|lane|way|drive|rue|via|calle|avenida|rua|suite|unit|floor|level|po box)\b/i.test(l)
    // Postcodes: US (OR 97205), UK (BS1 4DJ), and a European one before its town (80331 München).
    || /\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s\d[A-Z]{2}\b|\b\d{4,5}\s+[A-ZÄÖÜ][a-zäöüßéèà]+/.test(l)
    || /(?:straße|strasse|str\.|weg|gasse|platz|laan|straat|vej|gatan)\s*\d/i.test(l)));
}

/** Identifiers (a mix of letters and digits, as document numbers are) that a page states. */
function identifiers(text: string): Set<string> {
  return new Set((text.match(/\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{4,}\b/g) ?? []).filter((id) => /-/.test(id) || id.length >= 7));
}

/**
 * How strongly page `i` starts a new document rather than continuing the one before it: its own page number
 * (`Page 1 of 2` starts, `Page 2 of 2` continues), a document's title or a letterhead or an e-mail's header at its top,
 * text that starts mid-sentence or mid-list (continues), a document number it shares with the page before (continues),
 * and a page that is plainly of another kind than the page before, each classified alone.
 */
export function startEvidence(previous: string, page: string, previousClass: Classified, pageClass: Classified): number {
  const lines = nonEmpty(page);
  if (lines.length === 0) return -10;
  const top = lines.slice(0, 6);
  const numbered = pageNumber([...top, ...lines.slice(-3)]);
  if (numbered) return numbered.n === 1 ? 10 : -10;
  let score = titleWeight(top.join('\n'));
  if (letterhead(top)) score += 5;
  if (top.filter((l) => /^(?:from|to|date|subject|sent|cc|von|an|betreff|de|objet|à|da|oggetto)\s*:/i.test(l)).length >= 2) score += 6;
  if (/^(?:dear|hello|hi|sehr geehrte|liebe|cher|ch[èe]re|estimad[oa]|gentile)\b/i.test(top[0]!)) score += 4;
  const first = lines[0]!;
  if (/^[a-zäöüéèàç]/.test(first)) score -= 6;
  if (/^(?:\(?[b-z]\)|\(?(?:ii|iii|iv|v|vi)\)|[-•*–]\s|(?:[2-9]|\d{2})(?:\.\d+)*\.?\s)/i.test(first)) score -= 4;
  const shared = [...identifiers(page)].filter((id) => identifiers(previous).has(id));
  if (shared.length) score -= 4;
  // A page that is plainly a document of its own kind, after a page of another kind (or of none).
  if (pageClass.kind !== 'other' && pageClass.confidence >= 0.8 && previousClass.kind !== pageClass.kind) score += 5;
  return score;
}

/**
 * The documents in a run of pages (a PDF packet, a DOCX's page-broken sections, a workbook's sheets): a new document
 * starts on each page whose start evidence reaches START_THRESHOLD; the others continue the document before them.
 * `classes` are the pages classified alone (as `classifyText` answers), in order.
 */
export function splitPages(pages: readonly string[], classes: readonly Classified[] = pages.map((p) => classifyText(p))): Segment[] {
  const segments: Segment[] = [];
  pages.forEach((page, i) => {
    if (i === 0 || startEvidence(pages[i - 1]!, page, classes[i - 1]!, classes[i]!) >= START_THRESHOLD) segments.push({ from: i, to: i });
    else segments[segments.length - 1]!.to = i;
  });
  return segments;
}
