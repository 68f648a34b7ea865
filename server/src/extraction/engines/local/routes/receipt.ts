// Receipt: merchant letterhead, date and time, purchased lines, totals and the tender.
import type { FixedData } from '../engine-types.js';
import type { Doc } from '../segment/document.js';
import { pairs, linesLabelled } from '../segment/lookup.js';
import { clean } from '../segment/text.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { parseTime } from '../normalise/times.js';
import { extractLineItems } from './line-items.js';
import { addressLine } from './parties.js';
import { extractTotals } from './totals.js';
import { CODE_RE_SOURCE } from '../normalise/currency.js';

const TENDER_RE = /\b(ec[- ]karte|visa(?: debit)?|master ?card|mastercard|maestro|amex|american express|discover|diners(?: club)?|cash|debit card|credit card|debit|credit|apple pay|google pay|samsung pay|contactless|eftpos|interac|gift card|paypal|ec[- ]karte|girocard|check|cheque|twint|bancontact|ideal|klarna|alipay|wechat pay|revolut|carte bancaire)\b/i;
const PAYMENT_LABELS = ['payment', 'paid by', 'payment method', 'payment type', 'tender', 'paid with', 'method of payment', 'card type', 'paid', 'tendered', 'card', 'method', 'carte', 'karte', 'zahlung', 'zahlungsart', 'paiement', 'mode de paiement', 'pago'];

/** The tender as written, without card digits or masks. */
function tender(s: string): string | null {
  // How the card was presented (`contactless`, `chip`) is not the tender.
  s = s.replace(/\b(?:contactless|chip(?:\s*(?:&|and)\s*pin)?|tap(?:ped)?|swiped?|nfc|pin verified|inserted)\b/gi, ' ');
  s = s.replace(new RegExp(String.raw`(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])`, 'g'), ' ');
  const cleaned = clean(s.replace(/(?:[*xX•#]{2,}[\s-]*)+\d{0,4}|\b(?:ending|ending in|ends in|last 4)\b.*$|\b\d{4}\b|[$€£][\d.,]+|\d+[.,]\d{2}/gi, ' ')).replace(/[\s,:-]+$/, '');
  return cleaned && /\p{L}{2}/u.test(cleaned) ? cleaned : null;
}

function paymentMethod(doc: Doc, from: number): string | null {
  for (const kv of pairs(doc, PAYMENT_LABELS)) {
    const t = tender(kv.value);
    if (t && TENDER_RE.test(t)) return TENDER_RE.exec(t)![0] === t ? t : tender(kv.value);
    if (t) return t;
  }
  // A tender line below the totals: `VISA  $28.80`, `CASH £10.00`, `Gegeben EC-Karte  9,10 €`.
  for (const line of doc.lines.slice(from)) {
    const m = TENDER_RE.exec(line.text);
    if (m && (m.index === 0 || /[$€£\d*]/.test(line.text.slice(m.index)) || /^(?:paid|payment|tender(?:ed)?|gegeben)\b/i.test(line.text))) return m[0];
  }
  for (const line of doc.lines) {
    const m = /^(?:paid\s+(?:by|with)\s+)?([A-Za-z][A-Za-z ]{1,25}?)(?:\s+[*xX•#]{2,}\d*|\s+[$€£]?\s?\d|\s*$)/.exec(line.text);
    if (m && TENDER_RE.test(m[1]!) && TENDER_RE.exec(m[1]!)![0].length >= m[1]!.trim().length - 5) return m[1]!.trim();
  }
  return null;
}

const STOP_WORDS = /^(?:welcome to|thank you|receipt|sales receipt|customer copy|merchant copy)\b/i;

export function extractReceipt(doc: Doc): FixedData['receipt'] {
  // Merchant: the first line that is not a greeting or a title; the address lines follow it.
  let i = doc.lines.findIndex((l) => l.text && !/^(?:receipt|sales receipt|customer copy|tax invoice|welcome(?: to)?|bienvenue|willkommen)[!:.]?$/i.test(l.text));
  let merchant: string | null = null;
  const address: string[] = [];
  const header = new Set<number>();
  const totals = extractTotals(doc);
  // `TOTAL 3.00 CASH` as the first line: a receipt with no letterhead names no merchant.
  if (i >= 0 && ((totals.firstLine !== null && i >= totals.firstLine) || /\d[.,]\d{2}\b/.test(doc.lines[i]!.text) || /^(?:thanks?|thank you)\b/i.test(doc.lines[i]!.text))) i = -1;
  if (i >= 0) {
    merchant = clean(doc.lines[i]!.text.replace(/^[\s*=#~_|-]+|[\s*=#~_|-]+$/g, '').replace(/^welcome to\s+/i, ''));
    header.add(i);
    for (let j = i + 1; j < doc.lines.length && doc.lines[j]!.text; j++) {
      const t = doc.lines[j]!.text;
      if (!addressLine(t) || findDates(t, doc.dateOptions).length || parseTime(t) || STOP_WORDS.test(t) || /\b(?:vat|tax|gst|abn)\b/i.test(t)) break;
      // An address ends where the purchase begins: `CORNER SHOP / TOTAL 3.00 / CASH` has no address, and a line
      // priced at its end (`Milk 2.49`) or a tender alone (`CASH`) is never part of one.
      if ((totals.firstLine !== null && j >= totals.firstLine) || /\d[.,]\d{2}\s*$/.test(t) || TENDER_RE.exec(t)?.[0].length === t.trim().length) break;
      if (!/\d|,/.test(t) && address.length === 0 && j > i + 1) break;
      address.push(t);
      header.add(j);
    }
  }
  const dateLine = pairs(doc, ['date', 'date time', 'transaction date', 'purchase date']).find((kv) => parseDate(kv.value, doc.dateOptions))
    ?? linesLabelled(doc, ['date']).map((l) => ({ value: l.rest })).find((l) => parseDate(l.value, doc.dateOptions));
  const date = dateLine ? parseDate(dateLine.value, doc.dateOptions) : findDates(doc.text, doc.dateOptions)[0]?.iso ?? null;
  const timeKv = pairs(doc, ['time']).find((kv) => parseTime(kv.value)) ?? linesLabelled(doc, ['time']).map((l) => ({ value: l.rest })).find((l) => parseTime(l.value));
  const dateRow = doc.lines.find((l) => findDates(l.text, doc.dateOptions).length && parseTime(l.text.replace(/\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/g, ' ')));
  const time = timeKv ? parseTime(timeKv.value) : dateRow ? parseTime(dateRow.text.replace(/\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/g, ' ')) : null;

  const skip = new Set([...header, ...doc.kvs.filter((kv) => !/\d[.,]\d{2}\b/.test(kv.value) || parseDate(kv.value, doc.dateOptions)).map((kv) => kv.line)]);
  const items = extractLineItems(doc, 0, totals.firstLine ?? doc.lines.length, skip);
  return {
    merchant,
    address: address.length ? address.join(', ') : null,
    date,
    time,
    items,
    subtotal: totals.subtotal,
    tax: totals.tax,
    tip: totals.tip,
    total: totals.total,
    currency: totals.currency ?? doc.currency,
    paymentMethod: paymentMethod(doc, totals.firstLine ?? 0),
  };
}
