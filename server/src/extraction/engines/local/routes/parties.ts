// Name-and-address blocks: `Bill To:` and the lines under it, `From: Name` with indented lines, or the
// letterhead at the top of a document.
import { topLines, type Doc, type KeyValue } from '../segment/document.js';
import { INVOICE_TITLE_WORDS, RECEIPT_TITLE_WORDS } from '../lexicon.js';
import { clean, labelKey } from '../segment/text.js';

export interface PartyBlock {
  name: string | null;
  address: string | null;
  /** The line the name was read from, and the lines of the address. */
  nameLine: number | null;
  addressLines: number[];
  /** Every line the block covers, so line items and totals skip them. */
  lines: Set<number>;
  start: number;
  end: number;
}

const PHONE = /(?:\+?\d[\d ().-]{7,}\d)$|^(?:t[eé]l|phone|fax|mobile|t|p)\b/i;
const CONTACT = /@|https?:|www\.|^(?:t[eé]l[eé]?(?:fon|phone)?|phone|fax|email|e-mail|web)\b/i;
const KV_LIKE = /^[\p{L}][\p{L} .'’/&-]{0,40}:\s*\S/u;

/** An address's lines joined by commas, a comma a line already ends with not doubled (`JALAN PUTRA 1,` / `TAMAN`). */
export const addressOf = (lines: string[]) => lines.map((l) => clean(l).replace(/\s*[,;]$/, '')).filter(Boolean).join(', ');

/**
 * A registration, tax, business, licence or bank account number's line (`Reg. No 14455667`, `ABN 51 824 377 019`,
 * `Electrical Contractor Licence No. 77412`, `IBAN NL91 ABNA ...`): part of a party's block, never of its address.
 */
export function idLine(text: string): boolean {
  if (/\b(?:reg(?:istration)?\.?\s*(?:no|nr|code|number)|company\s+(?:no|number|reg)|vat\s*(?:no|id|reg)|tax\s*id)\b/i.test(text)) return true;
  return /\b(?:ABN|ACN|GSTIN|CIN|PAN|EIN|UEN|CNPJ|SIRET|KvK|IBAN|BIC|SWIFT)\b|\blicen[cs]e\s*(?:no|nr|number|#)|\b(?:a\/c|account)\s*(?:no|nr|number|#)/i.test(text) && (text.match(/\d/g) ?? []).length >= 5;
}

/** Whether a line belongs in an address: not a phone, e-mail, labelled field or date. */
export function addressLine(text: string): boolean {
  if (!text || CONTACT.test(text) || KV_LIKE.test(text)) return false;
  // `Reg. code 14455667 | VAT No: EE1029`: registration and tax numbers are not part of an address.
  if (text.split(/\s+\|\s+/).some((part) => KV_LIKE.test(part) || CONTACT.test(part))) return false;
  if (idLine(text)) return false;
  if (PHONE.test(text) && !/\p{L}{3}/u.test(text.replace(/^(?:tel|phone)\b/i, ''))) return false;
  // `(860671-D)`, `(CO. REG : 860671-D)`: a registration number in brackets.
  if (/^\(.*\d.*\)$/.test(text.trim())) return false;
  return true;
}

/** `株式会社サクラ商事 御中`, `山田太郎 様`: a Japanese form of address after the name is not part of it. */
const withoutHonorific = (name: string) => name.replace(/\s*(?:御中|様|殿)$/u, '') || name;

/** A block from a pair: the value (or the first line below) is the name, the following lines the address. */
export function blockFromPair(doc: Doc, kv: KeyValue): PartyBlock {
  const lines = new Set([kv.line]);
  const rest: string[] = [];
  const restLines: number[] = [];
  let name: string | null = kv.value || null;
  let nameLine: number | null = name ? kv.line : null;
  let end = kv.line;
  if (kv.continuation.length > 0) {
    kv.continuation.forEach((_, k) => lines.add(kv.line + 1 + k));
    end = kv.line + kv.continuation.length;
    for (const [k, c] of kv.continuation.entries()) { if (!addressLine(c)) break; rest.push(c); restLines.push(kv.line + 1 + k); }
  } else if (!name || /[,:]$/.test(kv.label) === false) {
    for (let j = kv.line + 1; j < doc.lines.length; j++) {
      const t = doc.lines[j]!.text;
      if (!t) { if (name || rest.length) break; continue; }
      if (!addressLine(t)) { if (!name) continue; break; }
      lines.add(j);
      end = j;
      if (!name) { name = t; nameLine = j; }
      else { rest.push(t); restLines.push(j); }
      if (rest.length >= 4) break;
    }
  }
  if (name && kv.value && kv.continuation.length === 0 && rest.length === 0) {
    // `Customer: Acme Ltd, 1 Road, Town`: the first comma part is the name when the rest has digits.
    const parts = name.split(/,\s*/);
    if (parts.length > 2 && /\d/.test(parts.slice(1).join(' '))) { name = parts[0]!; rest.push(parts.slice(1).join(', ')); restLines.push(kv.line); }
  }
  return { name: name ? withoutHonorific(clean(name)) : null, address: rest.length ? addressOf(rest) : null, nameLine, addressLines: restLines, lines, start: kv.line, end };
}

/** A document's title (`Invoice`, `TAX INVOICE`, `Faktura VAT`, `請求書`, `فاتورة ضريبية`), never a party's name. */
const TITLE = new RegExp(`^(?:tax\\s+)?(?:${[...INVOICE_TITLE_WORDS, ...RECEIPT_TITLE_WORDS, 'bill', 'statement', 'quote', 'quotation', 'pro forma', 'proforma', 'pro-forma']
  .sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|')})(?![\\p{L}])`, 'iu');

export const PAGE = /^(?:page\s+\d+(?:\s*(?:of|\/)\s*\d+)?|[-–]\s*\d+\s*[-–]|\d+\s*\/\s*\d+)$/i;

/** The letterhead: the first block of lines that is not a document title, its first line the name. */
export function letterhead(doc: Doc, stopAt: number): PartyBlock | null {
  // From the top of the document a mail carries, past its envelope, salutation and note.
  let i = topLines(doc)[0]?.index ?? doc.lines.length;
  const n = Math.min(stopAt, doc.lines.length);
  while (i < n) {
    while (i < n && (!doc.lines[i]!.text || doc.envelope.has(i))) i++;
    if (i >= n) return null;
    const t = doc.lines[i]!.text;
    // Page furniture above the letterhead: `Page 1 of 2`, `- 1 -`, `1/3`, `(Original for Recipient)`, `(Duplicate)`.
    if (PAGE.test(t) || /^\([^()\d]*\)$/.test(t)) { i++; continue; }
    if (TITLE.test(t) && t.split(/\s+/).length <= 5 || /[\/|]/.test(t) && t.split(/\s+/).every((w) => TITLE.test(w) || w === '/' || w === '|')) { i++; continue; }
    if (KV_LIKE.test(t)) return null;
    break;
  }
  if (i >= n) return null;
  const lines = new Set<number>([i]);
  const restLines: number[] = [];
  // `HARROWGATE & PIKE JOINERY LTD          TAX INVOICE`: the document's title beside the name is not part of it.
  const columns = doc.lines[i]!.raw.trim().split(/\s{3,}/);
  let name = columns.length > 1 && columns.slice(1).every((c) => TITLE.test(c)) ? columns[0]! : doc.lines[i]!.text;
  const rest: string[] = [];
  // `Druckerei Sonnenberg GmbH · Karl-Heine-Straße 92 · 04229 Leipzig`: a letterhead on one line, its parts set apart by
  // a middle dot, bullet or bar; the name first, then the address parts that are one.
  const parts = name.split(/\s+[·•|]\s+/);
  if (parts.length > 1) {
    name = parts[0]!;
    for (const part of parts.slice(1)) { if (!addressLine(part)) break; rest.push(part); if (!restLines.includes(i)) restLines.push(i); }
  }
  let j = i + 1;
  for (; j < n && doc.lines[j]!.text; j++) {
    const t = doc.lines[j]!.text;
    if (idLine(t)) { lines.add(j); continue; }
    if (!addressLine(t) || TITLE.test(t)) break;
    lines.add(j);
    rest.push(t);
    restLines.push(j);
  }
  return { name: clean(name), address: rest.length ? addressOf(rest) : null, nameLine: i, addressLines: restLines, lines, start: i, end: j - 1 };
}


