// Invoice: number, dates, parties, billed lines and totals.
import type { FixedData } from '../engine-types.js';
import type { Doc } from '../segment/document.js';
import { pairs, linesLabelled } from '../segment/lookup.js';
import { labelIs, labelKey, ocrLetters } from '../segment/text.js';
import { addDays, dateAfterPhraseAt, findDates, parseDate } from '../normalise/dates.js';
import { extractLineItems, locatedItem, type ReadLineItem } from './line-items.js';
import { labelledAs } from './summary-guard.js';
import { blockFromPair, letterhead, type PartyBlock } from './parties.js';
import { extractTotals, type Totals } from './totals.js';
import { field, finder, group, list, runTable, type FieldTable, type Recorder } from '../fields/finder.js';
import { at, derivedAt, figure, inText, type Located } from '../fields/located.js';
import { documentCurrency } from './currency-of.js';

type Invoice = FixedData['invoice'];
import { CUSTOMER_LABELS, DUE_DATE_LABELS, INVOICE_NUMBER_LABELS, INVOICE_TITLE_WORDS, ISSUE_DATE_LABELS, TAX_ID_LABELS, VENDOR_LABELS } from '../lexicon.js';
import { learned } from '../learned/learned-finder.js';

const NUMBER_LABELS = INVOICE_NUMBER_LABELS;
const ISSUE_LABELS = ISSUE_DATE_LABELS;
const DUE_LABELS = DUE_DATE_LABELS;

const escapeWord = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const INVOICE_WORD = `(?:${[...INVOICE_TITLE_WORDS, 'inv'].sort((x, y) => y.length - x.length).map(escapeWord).join('|')})`;
/** The mark of a number after the word (`No.`, `Nr.`, `n°`, `nº`, `#`, `Número`, `číslo`, `番号`, `번호`, `رقم`). */
const NUMBER_MARK = String.raw`(?:no\.?|nr\.?|n[°º]\.?|n\.?º|núm\.?|number|num\.?|numer|numero|número|nummer|numéro|#|č\.?|číslo|sz\.?|番号|號碼|号码|번호|رقم|αρ\.?)`;
/** `Invoice No. INV-7`, `Factura nº A-2291`, `FAKTURA VAT nr FV/2026/03/114`: the word, a number's mark and a code with a figure in it. */
const INLINE_NUMBER = new RegExp(String.raw`(?<![\p{L}])${INVOICE_WORD}\.?(?:\s+vat)?\s*${NUMBER_MARK}\s*[:.#]?\s*([A-Z0-9][A-Z0-9\-/._]*\d[A-Z0-9\-/._]*)\b`, 'iu');
/** `VAT No. GB 298 4471 02`, `ABN 51 824 753 556`, `GST/HST Reg. No. 81234 5678 RT0001`: a tax number written after its label without a colon. */
const INLINE_TAX_ID = /\b(?:VAT|Tax|GST|HST|ABN|EIN|TIN|TRN|BTW|TVA|IVA|NIP|NIF|CIF|RFC|RUT|CUIT|NIT|RUC|CNPJ|NPWP|MST|DIČ|IČO|CVR|UID|USt-?Id(?:Nr)?|P\.?\s?IVA|Partita IVA|Org\.?\s?nr|Y-tunnus|Adószám|Vergi No)(?:\/[A-Z]{2,4})?\.?\s*(?:Reg(?:istration)?\.?\s*)?(?:No|Nr|Number|ID|#|-?nummer)?\.?\s*:?\s*((?:[A-Z]{2,3}\s?)?\d(?:[.\-/]?[\dA-Z]|\s\d){5,}(?:\s?RT\s?\d{4})?)(?![\dA-Za-z])/iu;

/** `INVOICE INV-7`, `Factura A-2291`, `Faktura VAT FV/2026/03/114`, `請求書 No. 2026-0311` as the title line: the word, one code with a figure. */
const TITLE_NUMBER = new RegExp(String.raw`^(?:(?:tax|commercial|proforma|pro[- ]forma|vat)\s+)?${INVOICE_WORD}(?:\s+vat)?\s*(?:${NUMBER_MARK})?\s*[#:]?\s*#?\s*([A-Za-z0-9][A-Za-z0-9\-/._]*\d[A-Za-z0-9\-/._]*)$`, 'iu');
const ID_RE = /[A-Za-z0-9][A-Za-z0-9\-/._#]*\d[A-Za-z0-9\-/._]*/;

/** `Invoice No: INV-7`, `Invoice #: 2041`: a labelled pair (a date is not a number). */
const labelledNumber = finder<InvoiceContext, string>('labelled pair', ({ doc }) => {
  for (const kv of pairs(doc, NUMBER_LABELS)) {
    const m = ID_RE.exec(kv.value.replace(/^#\s*/, ''));
    if (m && !parseDate(m[0], doc.dateOptions)) return at(m[0], kv.line, m[0]);
  }
  return null;
});

/** Labels that lead a line of their own with the number after them (`INVOICE # 2041`, `FAKTURA NR 12/2026`): the number labels that name an invoice. */
const NUMBER_LINE_LABELS = INVOICE_NUMBER_LABELS.filter((l) => !['number', 'no', 'nummer', 'numer', 'numero', 'número', 'numéro', 'nomor', '番号', '번호', 'رقم', '编号', 'folio'].includes(l));

/** `INVOICE # 2041   DATE 02/20/2026`: a line led by the label, no colon. */
const numberAfterLabel = finder<InvoiceContext, string>('line led by the label', ({ doc }) => {
  for (const l of linesLabelled(doc, NUMBER_LINE_LABELS)) {
    const m = /^(?:no\.?|number|#)?\s*#?\s*([A-Za-z0-9][A-Za-z0-9\-/._]*\d[A-Za-z0-9\-/._]*)/i.exec(l.rest);
    if (m && !parseDate(m[1]!, doc.dateOptions)) return at(m[1]!, l.line, m[1]!);
  }
  return null;
});

/** `INVOICE NO.  BSE-0937`: the label and a letter-led number with no colon between them, in any column. */
const numberInColumn = finder<InvoiceContext, string>('label and number in a column', ({ doc }) => {
  for (const line of doc.lines) {
    for (const chunk of line.text.split(/\s{3,}/)) {
      const m = INLINE_NUMBER.exec(ocrLetters(chunk));
      if (m && !parseDate(m[1]!, doc.dateOptions)) { const id = chunk.slice(m.index + m[0].length - m[1]!.length, m.index + m[0].length); return at(id, line.index, id); }
    }
  }
  return null;
});

/**
 * `Invoice INV-7`, `TAX INVOICE TI/2026/118`, `Rechnung RE-2026-04` as the document's title line: the word and one code
 * with a figure in it, nothing else on the line.
 */
const numberInTitle = finder<InvoiceContext, string>('title line', ({ doc }) => {
  for (const line of doc.lines.filter((l) => l.text).slice(0, 5)) {
    const m = TITLE_NUMBER.exec(line.raw.trim().split(/\s{3,}/)[0]!);
    if (m && !parseDate(m[1]!, doc.dateOptions)) return at(m[1]!, line.index, m[1]!);
  }
  return null;
});

/** `Invoice Date: 03/02/2026`: a labelled pair, then a line led by the label (`DATE 02/20/2026`). */
const labelledDate = (labels: string[]) => finder<InvoiceContext, string>('labelled date', ({ doc }) => {
  for (const kv of pairs(doc, labels)) {
    const d = findDates(kv.value, doc.dateOptions)[0];
    if (d) return at(d.iso, kv.line, kv.value.slice(d.index, d.end));
  }
  for (const l of linesLabelled(doc, labels)) {
    const d = findDates(l.rest, doc.dateOptions)[0];
    if (d) return at(d.iso, l.line, l.rest.slice(d.index, d.end));
  }
  return null;
});

/** An invoice written as a letter: `Issued on the fifth of May 2026`, `remit payment no later than ...`. */
const dateInPhrase = (phrase: RegExp) => finder<InvoiceContext, string>('date after a phrase', ({ doc }) => {
  const d = dateAfterPhraseAt(doc.text, phrase, doc.dateOptions);
  return d ? inText(d.iso, d.index, d.end) : null;
});

const ISSUE_PHRASE = /\b(?:issued|dated|invoiced)\s+(?:on\s+|as\s+of\s+)?|\b(?:émise?\s+le|ausgestellt\s+am|emitida\s+el|emessa\s+il|wystawiona\s+dnia)\s+/i;
const DUE_PHRASE = /\b(?:no\s+later\s+than|payable\s+(?:by|on\s+or\s+before)|pay(?:ment)?\s+(?:is\s+)?due\s+(?:by|on)|please\s+pay\s+by)\s+/i;
/** `Issued on the fifth of May 2026 to:`, `Prepared for:`: a sentence-like label that introduces the customer. */
const ADDRESSED_TO = /^(?:issued|prepared|invoiced|billed|made\s+out|addressed)\b.*\b(?:to|for)$/;

/** `Terms: Net 30` beside an issue date: the due date is written as a count of days. */
const dueByTerms = finder<InvoiceContext, string>('issue date plus net terms', ({ doc, found }) => {
  const m = /\bnet\s*(\d{1,3})\b|\bwithin\s+(\d{1,3})\s+days\b|(\d{1,3})\s+days\s+net\b/i.exec(doc.text);
  return m && found.issueDate ? inText(addDays(found.issueDate, Number(m[1] ?? m[2] ?? m[3])), m.index, m.index + m[0].length, true) : null;
});

interface InvoiceContext {
  doc: Doc;
  found: Partial<Invoice>;
  vendor: PartyBlock | null;
  customer: PartyBlock | null;
  vendorTaxId: Located<string> | null;
  customerTaxId: Located<string> | null;
  totals: Totals;
  lineItems: ReadLineItem[];
}

/** The document read once for every field: the two party blocks, their tax numbers, the totals and the billed lines. */
function readInvoice(doc: Doc): InvoiceContext {
  // `Bill To:` as a pair, or `SOLD TO` alone on its line above the block.
  const customerPair = doc.kvs.find((kv) => labelIs(kv.key, CUSTOMER_LABELS) || !kv.value && ADDRESSED_TO.test(kv.key))
    ?? doc.lines.filter((l) => l.text && (l.text.split(' ').length <= 3 && labelIs(labelKey(l.text), CUSTOMER_LABELS) || l.text.length <= 70 && /:$/.test(l.text) && ADDRESSED_TO.test(labelKey(l.text))))
      .map((l) => ({ line: l.index, label: l.text, key: labelKey(l.text), value: '', continuation: [] }))[0];
  const vendorPair = doc.kvs.find((kv) => labelIs(kv.key, VENDOR_LABELS) && kv !== customerPair);
  const customer: PartyBlock | null = customerPair ? blockFromPair(doc, customerPair) : null;
  const vendor: PartyBlock | null = vendorPair ? blockFromPair(doc, vendorPair) : letterhead(doc, customer?.start ?? doc.lines.length);

  // A tax ID is an identifier: `VAT 19%: 509,20 €` is the tax itself.
  const taxIds = pairs(doc, TAX_ID_LABELS).filter((kv) => /\d/.test(kv.value) && !/%/.test(kv.label) && !/^[\p{Sc}]?\s?-?[\d.,' ]*[.,]\d{2}\s?(?:[\p{Sc}]|[A-Z]{3})?$/u.test(kv.value));
  const inBlock = (b: PartyBlock | null, line: number) => !!b && (b.lines.has(line) || line >= b.start && line <= b.end + 1);
  // Without a `Label: value` tax ID, one written inline in the vendor's block.
  if (taxIds.length === 0 && vendor) {
    for (let i = vendor.start; i <= Math.min(vendor.end + 2, doc.lines.length - 1); i++) {
      const m = INLINE_TAX_ID.exec(doc.lines[i]!.text);
      if (m) { taxIds.push({ line: i, label: 'tax id', key: 'tax id', value: m[1]!.trim(), continuation: [] }); break; }
    }
  }
  const vendorTax = taxIds.find((kv) => inBlock(vendor, kv.line) || (!inBlock(customer, kv.line) && (!customer || kv.line < customer.start)));
  const customerTax = taxIds.find((kv) => inBlock(customer, kv.line) && kv !== vendorTax);

  const totals = extractTotals(doc);
  const skip = new Set<number>([...(vendor?.lines ?? []), ...(customer?.lines ?? []), ...doc.kvs.filter((kv) => kv.value === '' || !/\d[.,]\d{2}\b/.test(kv.value) || parseDate(kv.value, doc.dateOptions)).map((kv) => kv.line)]);
  const lineItems = extractLineItems(doc, 0, totals.firstLine ?? doc.lines.length, skip);
  const taxIdAt = (kv: typeof vendorTax) => (kv ? at(kv.value, kv.line, kv.value) : null);
  return { doc, found: {}, vendor, customer, vendorTaxId: taxIdAt(vendorTax), customerTaxId: taxIdAt(customerTax), totals, lineItems };
}

type C = InvoiceContext;
const party = (which: 'vendor' | 'customer', how: string) => group<C, Invoice['vendor']>({
  name: field('name', [finder(how, (c) => { const b = c[which]; return b?.name && b.nameLine !== null ? at(b.name, b.nameLine) : null; }), learned(`invoice:/${which}/name`)]),
  address: field('address', [finder(how, (c) => { const b = c[which]; return b?.address && b.addressLines.length ? at(b.address, b.addressLines) : null; })]),
  taxId: field('id', [finder('tax number in the party\'s block', (c) => (which === 'vendor' ? c.vendorTaxId : c.customerTaxId)), learned(`invoice:/${which}/taxId`)]),
});

export const INVOICE_FIELDS: FieldTable<C, Invoice> = {
  invoiceNumber: field('id', [labelledNumber, numberAfterLabel, numberInColumn, numberInTitle, learned('invoice:/invoiceNumber')]),
  issueDate: field('date', [labelledDate(ISSUE_LABELS), dateInPhrase(ISSUE_PHRASE), learned('invoice:/issueDate')]),
  dueDate: field('date', [labelledDate(DUE_LABELS), dateInPhrase(DUE_PHRASE), dueByTerms, learned('invoice:/dueDate')]),
  // `From: Name` with its lines, else the letterhead above the customer's block.
  vendor: party('vendor', 'vendor label or letterhead'),
  // `Bill To:` and the lines under it.
  customer: party('customer', 'customer label'),
  lineItems: list('object', [finder<C, Invoice['lineItems']>('billed lines above the totals', (c) => c.lineItems.map(locatedItem))]),
  subtotal: field('money', [finder('subtotal line', (c) => figure(c.totals.subtotal, c.totals.at.subtotal)), labelledAs('subtotal', learned('invoice:/subtotal'))]),
  tax: field('money', [finder('tax lines', (c) => figure(c.totals.tax, c.totals.at.tax)), labelledAs('tax', learned('invoice:/tax'))]),
  total: field('money', [finder('total line', (c) => figure(c.totals.total, c.totals.at.total)), labelledAs('total', learned('invoice:/total'))]),
  // `Total (CAD)` names it over the document's own currency mark.
  currency: field('currency', [finder('currency of the total', (c) => figure(c.totals.currency, c.totals.at.currency)), finder('document currency', (c) => documentCurrency(c.doc))]),
};

export const extractInvoice = (doc: Doc, rec: Recorder = { route: 'invoice' }): Invoice => runTable(INVOICE_FIELDS, readInvoice(doc), rec);
