// Receipt: merchant letterhead, date and time, purchased lines, totals and the tender.
import type { FixedData } from '../engine-types.js';
import { topLines, type Doc } from '../segment/document.js';
import { pairs, linesLabelled } from '../segment/lookup.js';
import { clean } from '../segment/text.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { parseTime } from '../normalise/times.js';
import { extractLineItems, locatedItem } from './line-items.js';
import { labelledAs } from './summary-guard.js';
import { addressLine, addressOf } from './parties.js';
import { extractTotals, type Totals } from './totals.js';
import { field, finder, list, runTable, type FieldTable, type Recorder } from '../fields/finder.js';
import { at, figure, inText, linesOf } from '../fields/located.js';
import { documentCurrency } from './currency-of.js';

type Receipt = FixedData['receipt'];
import { CODE_RE_SOURCE, LONE_MARK_SOURCE } from '../normalise/currency.js';
import { LEGAL_FORM_END, PAYMENT_LABELS, SLIP_DATE_LABELS, TENDER_WORDS, TIME_LABELS } from '../lexicon.js';
import { learned } from '../learned/learned-finder.js';

/** Card brands and wallets, and tenders in every language the lexicon lists (`cash`, `Bargeld`, `gotówka`, `現金`). */
const TENDER_RE = new RegExp(String.raw`(?<![\p{L}])(?:ec[- ]karte|visa(?: debit)?|master ?card|mastercard|maestro|amex|american express|discover|diners(?: club)?|apple pay|google pay|samsung pay|eftpos|interac|paypal|girocard|twint|bancontact|ideal|klarna|alipay|wechat pay|revolut|(?<=gegeben\s)bar|bar(?=\s+(?:€\s?|eur\s?)?\d)|${[...TENDER_WORDS].sort((x, y) => y.length - x.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\p{L}])`, 'iu');
/** The tender as written, without card digits or masks. */
function tender(s: string): string | null {
  // How the card was presented (`contactless`, `chip`) is not the tender.
  s = s.replace(/\b(?:contactless|chip(?:\s*(?:&|and)\s*pin)?|tap(?:ped)?|swiped?|nfc|pin verified|inserted)\b/gi, ' ');
  s = s.replace(new RegExp(String.raw`(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])`, 'g'), ' ');
  const cleaned = clean(s.replace(/(?:[*xX•#]{2,}[\s-]*)+\d{0,4}|\b(?:ending|ending in|ends in|last 4)\b.*$|\b\d{4}\b|[$€£][\d.,]+|\d+[.,]\d{2}/gi, ' ')).replace(/[\s,:-]+$/, '');
  return cleaned && /\p{L}{2}/u.test(cleaned) ? cleaned : null;
}

/** `Payment: VISA **** 4417`, `Paid by: Apple Pay`: a labelled tender, without its card digits. */
const labelledTender = finder<C, string>('labelled tender', ({ doc }) => {
  for (const kv of pairs(doc, PAYMENT_LABELS)) {
    const t = tender(kv.value);
    if (t) return at(t, kv.line);
  }
  return null;
});

/** A tender line below the totals: `VISA  $28.80`, `CASH £10.00`, `Gegeben EC-Karte  9,10 €`. */
const tenderBelowTotals = finder<C, string>('tender line below the totals', ({ doc, totals }) => {
  for (const line of doc.lines.slice(totals.firstLine ?? 0)) {
    const m = TENDER_RE.exec(line.text);
    if (m && (m.index === 0 || /[$€£\d*]/.test(line.text.slice(m.index)) || /^(?:paid|payment|tender(?:ed)?|gegeben)\b/i.test(line.text))) return at(m[0], line.index, m[0]);
  }
  return null;
});

const TENDER_LINE = new RegExp(String.raw`^(?:paid\s+(?:by|with)\s+)?(\p{L}[\p{L} ]{1,25}?)(?:\s+[*xX•#]{2,}\d*|\s+(?:[\p{Sc}]|${LONE_MARK_SOURCE})?\s?\d|\s*$)`, 'u');

/** `Paid with Mastercard ****1234`, `AMEX   $41.20`, `Card  R 291,90`: a line that is a tender's name and its card or amount. */
const tenderLine = finder<C, string>('line naming a tender', ({ doc }) => {
  for (const line of doc.lines) {
    const m = TENDER_LINE.exec(line.text);
    if (m && TENDER_RE.test(m[1]!) && TENDER_RE.exec(m[1]!)![0].length >= m[1]!.trim().length - 5) return at(m[1]!.trim(), line.index);
  }
  return null;
});

const STOP_WORDS = /^(?:welcome to|thank you|receipt|sales receipt|customer copy|merchant copy)\b/i;

interface Letterhead { merchant: string | null; address: string[]; lines: Set<number>; merchantLines: number[]; addressLines: number[] }

/** The merchant's name on the first line that is not a greeting or a title, and the address lines under it. */
function readLetterhead(doc: Doc, totals: Totals): Letterhead {
  // A line of figures (`3 180048`, a till or phone number) names nobody: the letterhead starts at a line of words.
  const from = topLines(doc)[0]?.index ?? 0;
  let i = doc.lines.findIndex((l) => l.index >= from && !doc.envelope.has(l.index) && l.text && /\p{L}{2}/u.test(l.text) && !/^(?:receipt|sales receipt|customer copy|tax invoice|welcome(?: to)?|bienvenue|willkommen)[!:.]?$/i.test(l.text));
  const out: Letterhead = { merchant: null, address: [], lines: new Set(), merchantLines: [], addressLines: [] };
  // `TOTAL 3.00 CASH` as the first line: a receipt with no letterhead names no merchant.
  if (i >= 0 && ((totals.firstLine !== null && i >= totals.firstLine) || /\d[.,]\d{2}\b/.test(doc.lines[i]!.text) || /^(?:thanks?|thank you)\b/i.test(doc.lines[i]!.text))) i = -1;
  if (i < 0) return out;
  out.merchant = clean(doc.lines[i]!.text.replace(/^[\s*=#~_|-]+|[\s*=#~_|-]+$/g, '').replace(/^welcome to\s+/i, ''))
    // `99 SPEED MART S/B (519537-X)`: a company's registration number in brackets is not part of its name.
    .replace(/\s*\(\s*\d[\d-]*-?\s?[A-Z]?\s*\)$/, '');
  out.lines.add(i);
  out.merchantLines.push(i);
  // `HOME MASTER HARDWARE &` / `ELECTRICAL`: a name that ends in `&` or `and` goes on to the next line.
  if (/(?:&|\band)$/i.test(out.merchant) && doc.lines[i + 1]?.text && /^\p{L}[\p{L} &'.-]*$/u.test(doc.lines[i + 1]!.text)) {
    out.merchant = clean(`${out.merchant} ${doc.lines[i + 1]!.text}`);
    out.lines.add(++i);
    out.merchantLines.push(i);
  }
  for (let j = i + 1; j < doc.lines.length && doc.lines[j]!.text; j++) {
    const t = doc.lines[j]!.text;
    // A company's name under the shop's (`MR D.I.Y. (M) SDN BHD`) is no address line: the address starts after it.
    // A registration number in brackets (`(860671-D)`) beside it is skipped too, wherever it stands.
    if (out.address.length === 0 && LEGAL_FORM_END.test(t.replace(/[.,]+$/, '')) || /^\(.*\d.*\)$/.test(t.trim())) { out.lines.add(j); continue; }
    if (!addressLine(t) || findDates(t, doc.dateOptions).length || parseTime(t) || STOP_WORDS.test(t) || /\b(?:vat|tax|gst|abn)\b/i.test(t)) break;
    // An address ends where the purchase begins: `CORNER SHOP / TOTAL 3.00 / CASH` has no address, and a line
    // priced at its end (`Milk 2.49`) or a tender alone (`CASH`) is never part of one.
    if ((totals.firstLine !== null && j >= totals.firstLine) || /\d[.,]\d{2}\s*$/.test(t) || TENDER_RE.exec(t)?.[0].length === t.trim().length) break;
    if (!/\d|,/.test(t) && out.address.length === 0 && j > i + 1) break;
    out.address.push(t);
    out.addressLines.push(j);
    out.lines.add(j);
  }
  return out;
}

interface C { doc: Doc; totals: Totals; head: Letterhead }

const DATE_TIME_ROW = /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/g;

/** `Date: 14/03/2026`, `DATE 02/20/2026  TIME 07:58`: a labelled date. */
const labelledDate = finder<C, string>('labelled date', ({ doc }) => {
  const kv = pairs(doc, SLIP_DATE_LABELS).find((k) => parseDate(k.value, doc.dateOptions))
    ?? linesLabelled(doc, SLIP_DATE_LABELS).map((l) => ({ value: l.rest, line: l.line })).find((l) => parseDate(l.value, doc.dateOptions));
  return kv ? at(parseDate(kv.value, doc.dateOptions)!, kv.line) : null;
});

/** A till slip's date with no label (`2026-03-14 18:05`): the first date it prints. */
const firstDate = finder<C, string>('first date printed', ({ doc }) => {
  // Not a date of an e-mail that carries the slip.
  const d = findDates(doc.text, doc.dateOptions).find((x) => !linesOf(doc, x.index, x.end).some((l) => doc.envelope.has(l)));
  return d ? inText(d.iso, d.index, d.end) : null;
});

/** `Time: 8:15 PM`, `TIME 07:58`. */
const labelledTime = finder<C, string>('labelled time', ({ doc }) => {
  const kv = pairs(doc, TIME_LABELS).find((k) => parseTime(k.value)) ?? linesLabelled(doc, TIME_LABELS).map((l) => ({ value: l.rest, line: l.line })).find((l) => parseTime(l.value));
  return kv ? at(parseTime(kv.value)!, kv.line) : null;
});

/** `14/03/2026 18:05`: the time on the date's row. */
const timeBesideDate = finder<C, string>('time on the date row', ({ doc }) => {
  const row = doc.lines.find((l) => findDates(l.text, doc.dateOptions).length && parseTime(l.text.replace(DATE_TIME_ROW, ' ')));
  return row ? at(parseTime(row.text.replace(DATE_TIME_ROW, ' '))!, row.index) : null;
});

/** Purchased lines above the totals, skipping the letterhead and labelled non-money pairs. */
const purchasedLines = finder<C, Receipt['items']>('lines above the totals', ({ doc, totals, head }) => {
  const skip = new Set([...head.lines, ...doc.kvs.filter((kv) => !/\d[.,]\d{2}\b/.test(kv.value) || parseDate(kv.value, doc.dateOptions)).map((kv) => kv.line)]);
  return extractLineItems(doc, 0, totals.firstLine ?? doc.lines.length, skip).map(locatedItem);
});

export const RECEIPT_FIELDS: FieldTable<C, Receipt> = {
  merchant: field('name', [finder('letterhead', (c) => (c.head.merchant ? at(c.head.merchant, c.head.merchantLines) : null)), learned('receipt:/merchant')]),
  address: field('address', [finder('lines under the letterhead', (c) => (c.head.address.length ? at(addressOf(c.head.address), c.head.addressLines) : null))]),
  date: field('date', [labelledDate, firstDate, learned('receipt:/date')]),
  time: field('time', [labelledTime, timeBesideDate]),
  items: list('object', [purchasedLines]),
  subtotal: field('money', [finder('subtotal line', (c) => figure(c.totals.subtotal, c.totals.at.subtotal)), labelledAs('subtotal', learned('receipt:/subtotal'))]),
  tax: field('money', [finder('tax lines', (c) => figure(c.totals.tax, c.totals.at.tax)), labelledAs('tax', learned('receipt:/tax'))]),
  tip: field('money', [finder('tip line', (c) => figure(c.totals.tip, c.totals.at.tip))]),
  total: field('money', [finder('total line', (c) => figure(c.totals.total, c.totals.at.total)), labelledAs('total', learned('receipt:/total'))]),
  currency: field('currency', [finder('currency of the total', (c) => figure(c.totals.currency, c.totals.at.currency)), finder('document currency', (c) => documentCurrency(c.doc))]),
  paymentMethod: field('label', [labelledTender, tenderBelowTotals, tenderLine, learned('receipt:/paymentMethod')]),
};

export function extractReceipt(doc: Doc, rec: Recorder = { route: 'receipt' }): Receipt {
  const totals = extractTotals(doc);
  return runTable(RECEIPT_FIELDS, { doc, totals, head: readLetterhead(doc, totals) }, rec);
}
