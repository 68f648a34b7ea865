// Renewal terms of a subscription, each value with the verbatim sentence or line that states it.
import type { FixedData } from '../engine-types.js';
import type { Doc, KeyValue } from '../segment/document.js';
import { labelledLines, namesUnderHeadings, pairs } from '../segment/lookup.js';
import { summaryKind } from './totals.js';
import { partyName } from '../segment/organisations.js';
import {
  AUTO_RENEWAL_PHRASES, BILLING_PERIOD_WORDS, CUSTOMER_LABELS, DOCUMENT_KIND_WORDS, INVOICE_TITLE_WORDS, PRICE_WORDS, SEAT_WORDS, SUBSCRIPTION_WORDS, LEGAL_FORM_END, NOTICE_LABELS, NOTICE_WORDS, PERIOD_UNITS, RENEWAL_DATE_LABELS, TERM_END_LABELS, TERM_START_LABELS, VENDOR_LABELS,
} from '../lexicon.js';
import { field, finder, grounded, runTable, type FieldTable, type Grounded, type Recorder } from '../fields/finder.js';
import { at, derivedAt, linesOf, type Located } from '../fields/located.js';
import { MAX_QUOTE } from '../fields/bounds.js';
import { sentences, sentencesIn } from '../segment/sentences.js';
import { clean, dropParens, labelIs, trimPunct } from '../segment/text.js';
import { MAIL_HEADER_LABELS } from '../segment/envelope.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { currencyIn } from '../normalise/currency.js';
import { findAmounts } from '../normalise/money.js';
import { COUNT_SOURCE, parseCount } from '../normalise/counts.js';
import { learnedGrounded } from '../learned/learned-finder.js';

type Renewal = FixedData['renewal'];
const none = <T>(): Grounded<T> => ({ value: null, sourceQuote: null });

/** A quote no longer than the limit: the whole statement, or a window of it around `focus`. */
function quote(statement: string, focus?: string): string {
  const s = clean(statement);
  if (s.length <= MAX_QUOTE) return s;
  const at = focus ? s.indexOf(clean(focus)) : 0;
  const from = Math.max(0, Math.min(at - 60, s.length - MAX_QUOTE));
  return s.slice(from, from + MAX_QUOTE).trim();
}

/** A grounded value and the statement (sentence or line) it was read from, before it is located. */
type Stated<T> = Grounded<T> & { statement?: string; derived?: boolean };

const g = <T>(value: T | null, statement: string | null, focus?: string): Stated<T> =>
  value === null || value === undefined || !statement ? none<T>() : { value, sourceQuote: quote(statement, focus), statement };

/** The verbatim line of a pair, for its quote. */
const lineOf = (doc: Doc, kv: KeyValue) => doc.lines[kv.line]!.text;

/** `Company:` on a renewal notice or order form is the vendor's (on an invoice it may be either party's). */
const VENDOR_ROLES = [...VENDOR_LABELS, 'company'];
/** `Account:` on a renewal notice names the customer's account. */
const CUSTOMER_ROLES = [...CUSTOMER_LABELS, 'account'];

/** An e-mail header's sender (`From: ParcelPoint Renewals <renewals@...>`): a team's display name, not the vendor. */
const MAIL_SENDER = /<[^>\s]+@[^>\s]+>|^[^\s@]+@[^\s@]+$/;

/** `Vendor: Cloudnest Inc.`, `Company: ...` (on a renewal notice or order form, the vendor's). */
const labelledVendor = from<string>('labelled vendor', ({ doc }) => {
  const kv = pairs(doc, VENDOR_ROLES).find((k) => k.value && /\p{Lu}/u.test(k.value) && !MAIL_SENDER.test(k.value));
  return kv ? g(partyName(kv.value), lineOf(doc, kv)) : null;
});

/** `From: Tally Books Ltd <billing@...>`: an e-mail's sender names the vendor only when the name is a company's. */
const mailSender = from<string>('e-mail sender with a legal form', ({ doc }) => {
  // This finder reads the mail on purpose: its envelopes' senders first, then a `From:` of the document's own.
  for (const kv of [...doc.mail.filter((k) => labelIs(k.key, MAIL_HEADER_LABELS.from)), ...pairs(doc, ['from', 'sender'])]) {
    const name = trimPunct(kv.value.replace(/<[^>]*>/g, ' ').replace(/["“”]/g, ' ').trim());
    if (name && LEGAL_FORM_END.test(name)) return g(name, lineOf(doc, kv));
  }
  return null;
});

/** `VENDOR` alone on its line, the name under it. */
const vendorUnderHeading = from<string>('name under a vendor heading', ({ doc }) => {
  const headed = namesUnderHeadings(doc, VENDOR_ROLES)[0];
  return headed ? g(trimPunct(headed.name), headed.name) : null;
});

/** A letterhead whose first column ends in a legal form (`Brightroom Scheduling, Inc.`) and is not the customer. */
const legalLetterhead = from<string>('legal-form letterhead', ({ doc }) => {
  const customerNames = pairs(doc, CUSTOMER_ROLES).map((k) => dropParens(k.value));
  const top = doc.text.split('\n').find((l) => l.trim())?.trim().split(/\s{3,}/)[0];
  return top && LEGAL_FORM_END.test(top) && !customerNames.includes(top) ? g(top, top) : null;
});

/**
 * A letter signed by an organisation (`Kind regards, / Renewals Team / Quillstone Cloud Holdings Ltd`, `Fieldwise Ltd,
 * Customer Success`): a renewal notice is sent by the vendor. The name must end in a legal form.
 */
const signingOrganisation = from<string>('organisation signing the letter', ({ doc }) => {
  const lines = doc.lines.filter((l) => l.text);
  const close = lines.map((l) => /^(?:(?:best|kind|warm|warmest)\s+(?:regards|wishes)|best|all\s+the\s+best|regards|thanks|thank you|many thanks|sincerely|yours\s+(?:sincerely|truly|faithfully)|cheers)\b[,.!]?$/i.test(l.text)).lastIndexOf(true);
  // Without a closing word, the signature is the letter's last line standing alone after a blank line.
  const last = doc.lines.filter((l) => l.text).pop();
  const block = close >= 0 ? lines.slice(close + 1, close + 5) : last && !doc.lines[last.index - 1]?.text && !doc.kvs.some((kv) => kv.line === last.index) ? [last] : [];
  for (const l of block) {
    // `Trellisgate, Inc. | 410 N. Wells St.`, `Fieldwise Ltd, Customer Success`: a part, or its first comma parts.
    const name = l.text.split(/\s+[|–—-]\s+/).flatMap((part) => [part, ...part.split(/,\s+/).map((_, k, all) => all.slice(0, k + 1).join(', '))])
      .map((p) => trimPunct(p)).find((p) => LEGAL_FORM_END.test(p));
    if (name) return g(name, l.text);
  }
  return null;
});

const BETWEEN = /\b(?:between|entered\s+into\s+by)\s+(.+?)\s*(?:\(\s*["“]([^"”]+)["”]\s*\))?,?\s+and\s+(.+?)\s*(?:\(\s*["“]([^"”]+)["”]\s*\))?(?:[.,;]|$)/i;

/** `between Quillstone Ltd ("Provider") and Harbor Co ("Customer")`: the party that is not the customer, by role. */
const vendorBetween = from<string>('between clause', ({ stmts }) => {
  for (const s of stmts) {
    const m = BETWEEN.exec(s);
    if (!m) continue;
    const [a, aRole, b, bRole] = [partyName(m[1]!), m[2] ?? '', partyName(m[3]!), m[4] ?? ''];
    const customerFirst = /customer|client|subscriber|licensee/i.test(aRole) || /vendor|provider|supplier|licensor/i.test(bRole);
    return g(customerFirst ? b : a, s);
  }
  return null;
});

/** `Product: ...`, an order summary's first part, a billed `... Plan`, or a subscription named in a sentence. */
function product(doc: Doc, stmts: string[]): Stated<string> {
  const kv = pairs(doc, ['product', 'plan', 'service', 'subscription', 'edition', 'product name', 'solution', 'software', 'package', 'services', 'subscription plan', 'product plan', 'offering', 'tier']).find((k) => k.value && /\p{L}/u.test(k.value));
  if (kv) return g(trimPunct(dropParens(kv.value).split(/,\s+(?=\d)/)[0]!), lineOf(doc, kv));
  // `Order summary: Helio Sales Cloud Professional, 35 named users, ...`: a summary's first part names the product.
  // Any labelled value shaped `Product Name, 40 seats` names the product the same way (`Renewal of: ...`).
  const summary = pairs(doc, ['order summary', 'summary', 'item', 'line item', 'order']).find((k) => /^[A-Z][\w&.+-]*(?:\s+[A-Z0-9][\w&.+-]*){1,5},\s/.test(k.value))
    ?? doc.kvs.find((k) => new RegExp(String.raw`^[A-Z][\w&.+-]*(?:\s+[A-Z0-9][\w&.+-]*){1,5},\s+${COUNT_SOURCE}\s+(?:named\s+|active\s+)?(?:seats?|users?|licen[cs]es?)\b`, 'i').test(k.value));
  if (summary) return g(summary.value.split(',')[0]!.trim(), lineOf(doc, summary));
  const patterns = [
    /\bsubscription\s+(?:to|for)\s+((?:the\s+)?[A-Z][\w&.+-]*(?:\s+[A-Z0-9][\w&.+-]*){0,5})/,
    // `Ihr Abonnement Cloudhafen Business`, `votre abonnement à Nuvola Pro`, `la suscripción a Cumbre CRM`.
    new RegExp(String.raw`(?<![\p{L}])(?:${words(SUBSCRIPTION_WORDS)})\s+(?:(?:zu|für|von|à|au|a|al|de|del|di|do|da|na|til|till|voor)\s+)?(\p{Lu}[\p{L}\p{N}&.+-]*(?:\s+[\p{Lu}\p{N}][\p{L}\p{N}&.+-]*){0,4})`, 'iu'),
    /\b((?:[A-Z][\w&.+-]*)(?:\s+[A-Z0-9][\w&.+-]*){0,4})\s+(?:plan|edition|tier)\b/,
    /\b(?:Your|your|the)\s+([A-Z][\w&.+-]*(?:\s+[A-Z0-9][\w&.+-]*){0,4})\s+(?:subscription|licen[cs]e)\b/,
    // `grants Customer access to the Heliovant Forecast Suite`, `a licence to use Orbit Ledger`.
    /\b(?:access\s+to|(?:right|licen[cs]e)\s+to\s+use)\s+(?:the\s+)?([A-Z][\w&.+-]*(?:\s+[A-Z0-9][\w&.+-]*){1,4})/,
  ];
  // A billed line (`Brightroom Practice Plan - annual subscription   18   $228.00`) naming a capitalised Plan or Edition.
  for (const l of doc.lines) {
    const m = /^([A-Z][\w&.+-]*(?: [A-Z0-9][\w&.+-]*){0,4} (?:Plan|Edition|Tier|Suite|Package))\b/.exec(l.raw.trim().split(/\s{3,}/)[0]!);
    if (m) return g(m[1]!, l.text, m[1]!);
  }
  let best: { name: string; stmt: string; raw: string } | null = null;
  for (const re of patterns) for (const s of stmts) {
    const m = re.exec(s);
    if (!m) continue;
    const name = trimPunct(m[1]!.replace(/^(?:the|your|our|this|a)\s+/i, ''));
    // A later, fuller mention (`Penwright Docs Business` after a subject line's `Penwright Docs`) wins.
    if (!best) best = { name, stmt: s, raw: m[1]! };
    else if (name.startsWith(`${best.name} `)) best = { name, stmt: s, raw: m[1]! };
  }
  return best ? g(best.name, best.stmt, best.raw) : none();
}

const words = (list: readonly string[]) => [...list].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
/** A period said in another language than English (`pro Jahr`, `mensuel`, `kwartalnie`, `年額`), as a whole phrase. */
const inWords = (list: readonly string[]) => new RegExp(`(?<![\\p{L}])(?:${words(list)})(?![\\p{L}])`, 'iu');

const FREQ: [RegExp, Renewal['billingFrequency']['value']][] = [
  [/\b(?:one[- ]time|one[- ]off|single payment|upfront for the (?:entire|whole) term)\b/i, 'one_time'],
  [/\b(?:semi[- ]?annual(?:ly)?|half[- ]yearly|every six months|twice a year|per half[- ]year)\b/i, 'semiannual'],
  [/\b(?:quarterly|per quarter|each quarter|every (?:three|3) months|\/\s?quarter|a quarter)\b/i, 'quarterly'],
  [/\b(?:monthly|per month|a month|each month|every month|\/\s?mo(?:nth)?\b|pm\b|p\/m)/i, 'monthly'],
  [/\b(?:annual(?:ly)?|per (?:year|annum)|a year|each year|yearly|every year|\/\s?(?:yr|year)\b|p\.a\.)/i, 'annual'],
  [inWords(BILLING_PERIOD_WORDS.quarterly), 'quarterly'],
  [inWords(BILLING_PERIOD_WORDS.monthly), 'monthly'],
  [inWords(BILLING_PERIOD_WORDS.annual), 'annual'],
];
/** A price or fee named in another language than English. */
const FEE_WORD = inWords(PRICE_WORDS);

const UNIT_PRICE_AFTER = /^\s*(?:(?:per|an?|each|\/)\s*(?!month\b|mo\b|year\b|yr\b|annum\b|quarter\b|week\b|term\b)(?:\d[\d,]*\s+)?(?:[a-z]+ )?(?:employee|user|seat|licen[cs]e|call|request|transaction|unit|document|page|hour|gb|member|host|device|agent|credit|message|api call)s?\b)/i;

function billing(doc: Doc, stmts: string[]) {
  const exclude = /\bcommit|\bminimum|\boverage\b|\bsetup\b|\bset-up\b|\bonboarding\b|\bpenalt|\blate fee|\binterest\b|\bcredit\b|\bdiscount\b|\bsaving/i;
  const feeWord = /\b(?:fee|fees|price|pricing|cost|charge|charges|billed|invoiced|subscription|rate|amount|payable|renewal price|total|per (?:month|year|annum|quarter)|\/\s?(?:mo|month|yr|year))\b/i;
  const candidates: { stmt: string; amount: { value: number; currency: string | null; raw: string } }[] = [];
  for (const s of stmts) {
    if (exclude.test(s) || !feeWord.test(s) && !FEE_WORD.test(s)) continue;
    // `SGD 2.50 per employee per month`, `$0.004 per call`: a unit's price, not what is billed.
    const a = findAmounts(s, doc.reading).find((x) => x.currency && x.value > 0 && !UNIT_PRICE_AFTER.test(s.slice(x.end)));
    if (a) candidates.push({ stmt: s, amount: a });
  }
  // A statement that names its period is the billed amount; otherwise the first fee.
  const withPeriod = candidates.find((c) => FREQ.some(([re]) => re.test(c.stmt)));
  const pick = withPeriod ?? candidates[0];
  let frequency: Stated<NonNullable<Renewal['billingFrequency']['value']>> = none();
  const freqIn = (s: string) => {
    // `billed monthly` / `invoiced annually` state the billing itself and win over `per month`.
    const billed = /\b(?:billed|invoiced|charged|payable|paid)\s+(?:\w+\s+){0,2}?(monthly|quarterly|annually|yearly|semi-annually|semiannually|every six months|in advance annually|per month|per year|per quarter|each month|each year)\b/i.exec(s);
    const source = billed ? billed[0] : s;
    return FREQ.find(([re]) => re.test(source))?.[1] ?? null;
  };
  if (pick) { const f = freqIn(pick.stmt); if (f) frequency = { ...g(f, pick.stmt), derived: true }; }
  if (frequency.value === null) {
    for (const s of stmts) {
      // `overage billed at $0.004 per call` beside `2,000,000 calls per month` says nothing of the billing period.
      if (!/\b(?:billed|invoiced|charged|billing|payable)\b/i.test(s) || exclude.test(s)) continue;
      const f = freqIn(s);
      if (f) { frequency = { ...g(f, s), derived: true }; break; }
    }
  }
  const currency: Stated<string> = pick ? g(pick.amount.currency, pick.stmt) : none<string>();
  return { amount: pick ? g(pick.amount.value, pick.stmt, pick.amount.raw) : none<number>(), currency, frequency };
}

function seatCount(doc: Doc, stmts: string[]): Stated<number> {
  const kv = [...pairs(doc, ['seats', 'users', 'licenses', 'licences', 'quantity', 'number of seats', 'seat count', 'user licenses', 'named users', 'number of users', 'licensed users', 'seat', 'no of seats', 'qty']), ...pairs(doc, ['seats', 'users', 'licenses', 'licences', 'hosts', 'devices', 'nodes', 'endpoints', 'agents', 'employees', 'seat count'], 'has')].find((k) => /^\d+\b/.test(k.value));
  if (kv) return g(Number(/^\d+/.exec(kv.value)![0]), lineOf(doc, kv));
  const re = new RegExp(String.raw`(?:\bto\s+)?\b(${COUNT_SOURCE})\s*(?:named\s+|active\s+|user\s+|concurrent\s+|licensed\s+)?(?:seats?|users?|licen[cs]es?|user licen[cs]es|agents?|editors?|${words(SEAT_WORDS)})(?![\p{L}])`, 'giu');
  for (const s of stmts) {
    const all = [...s.matchAll(re)];
    if (all.length === 0) continue;
    // `increased from 30 to 40 users`: the figure the seats become.
    const m = all.find((x) => /^to\s/i.test(x[0])) ?? all[all.length - 1]!;
    const n = parseCount(m[1]!);
    if (n !== null && n > 0) return g(n, s, m[0]);
  }
  return none();
}

/** `Service period: 01.07.2026 - 30.06.2027`, `January 1, 2026 through December 31, 2026`: a term's two ends. */
function dateRange(doc: Doc, stmts: string[]) {
  for (const s of stmts) {
    if (!/\b(?:term|period|runs|subscription|contract|valid|service|coverage)\b/i.test(s) || /\bamendment\b/i.test(s)) continue;
    const dates = findDates(s, doc.dateOptions);
    for (let i = 0; i + 1 < dates.length; i++) {
      const between = s.slice(dates[i]!.end, dates[i + 1]!.index);
      if (/^\s*(?:-|–|—|to|through|thru|until|till)\s*$/i.test(between)) return { start: g(dates[i]!.iso, s), end: g(dates[i + 1]!.iso, s) };
    }
  }
  return { start: none<string>(), end: none<string>() };
}

function dateField(doc: Doc, stmts: string[], labels: string[], prose: RegExp[], skipLabel?: RegExp): Stated<string> {
  for (const kv of pairs(doc, labels)) {
    if (skipLabel?.test(kv.label)) continue;
    const d = parseDate(kv.value, doc.dateOptions);
    if (d) return g(d, lineOf(doc, kv));
  }
  for (const re of prose) for (const s of stmts) {
    if (skipLabel?.test(s)) continue;
    const m = re.exec(s);
    if (!m) continue;
    const d = findDates(s.slice(m.index + m[0].length), doc.dateOptions)[0];
    if (d && d.index < 45) return g(d.iso, s);
  }
  return none();
}

const NOTICE_RE = new RegExp(String.raw`(?:(?:at\s+least|no\s+later\s+than|not\s+less\s+than|no\s+fewer\s+than|a\s+minimum\s+of|minimum\s+of|upon|with|giving|provide|on)\s+)?(${COUNT_SOURCE})\s*(?:calendar\s+|business\s+)?(days?|weeks?|months?)(?:['’]s?)?\s*(?:(?:prior\s+)?(?:advance\s+)?(?:written\s+)?notice(?:\s+of\s+non-renewal)?\s*)?(?:(?:prior\s+to|before|in\s+advance\s+of|ahead\s+of|preceding)\s+[^.;,:]+|(?:prior\s+)?(?:advance\s+)?(?:written\s+)?notice\b)`, 'i');

/** `with a notice period of three months to the end of the respective term`: the period named after its noun. */
const NOTICE_PERIOD_OF = new RegExp(String.raw`(?:with\s+)?(?:a\s+|the\s+)?notice\s+period\s+of\s+(?:at\s+least\s+|not\s+less\s+than\s+)?(${COUNT_SOURCE})\s*(?:calendar\s+|business\s+)?(days?|weeks?|months?)(?:\s+(?:to|before|prior\s+to|ahead\s+of|preceding)\s+[^.;,:]+)?`, 'i');

const unitSource = (words: string[]) => [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
/** A period in any language of the lexicon: `3 Monate`, `30 jours`, `dos (2) meses`, `30日`, `3개월`; its unit is group 2 (day), 3 (week) or 4 (month). */
const PERIOD = new RegExp(String.raw`(\d{1,3})\s*(?:\(\d{1,3}\)\s*)?(?:(${unitSource(PERIOD_UNITS.day)})|(${unitSource(PERIOD_UNITS.week)})|(${unitSource(PERIOD_UNITS.month)}))(?![\p{L}])`, 'iu');
const NOTICE_WORD = new RegExp(NOTICE_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'iu');

/** A notice period read from a period written in any language: days as days, weeks times seven, months kept as words only. */
function period(m: RegExpExecArray, statement: string): { days: Stated<number>; text: Stated<string> } {
  const n = Number(m[1]);
  const days = m[2] ? n : m[3] ? n * 7 : null;
  return { days: { ...g(days, statement, m[0]), derived: !m[2] }, text: g(trimPunct(clean(m[0])), statement, m[0]) };
}

/**
 * `Kündigungsfrist: 3 Monate zum Laufzeitende`, `Préavis : 30 jours`, or a sentence in another language that states a
 * notice (`... mit einer Frist von 3 Monaten gekündigt werden`): the period, where the English phrasings found none.
 */
function noticeInLanguage(doc: Doc, stmts: string[]) {
  for (const kv of pairs(doc, NOTICE_LABELS)) {
    const m = PERIOD.exec(kv.value);
    if (m) { const p = period(m, lineOf(doc, kv)); return { days: p.days, text: g(trimPunct(clean(kv.value)), lineOf(doc, kv)) }; }
  }
  for (const s of stmts) {
    if (!NOTICE_WORD.test(s)) continue;
    const m = PERIOD.exec(s);
    if (m) return period(m, s);
  }
  return null;
}

function notice(stmts: string[]) {
  const topical = (s: string) => /\bnotice|\bnotif(?:y|ies|ied|ication)|\bcancel|\bnon-renewal|\bopt[- ]out|\blet us know|\btell us|\binform|\badvise|\bterminat/i.test(s);
  const renewalish = (s: string) => /\brenew|\bcancel|\bnon-renewal|\bend of (?:the |your )?(?:then[- ])?(?:current )?(?:term|subscription)|\bopt[- ]out|\bcontinue/i.test(s);
  const ordered = [...stmts.filter((s) => topical(s) && renewalish(s)), ...stmts.filter((s) => topical(s) && !renewalish(s) && !/\bbreach\b/i.test(s))];
  for (const s of ordered) {
    const m = NOTICE_RE.exec(s) ?? NOTICE_PERIOD_OF.exec(s);
    if (!m) continue;
    let text = m[0].split(/\s+(?:so|in order|to allow|unless|otherwise|or else|and we|so that|if|when|where|which)\s/i)[0]!;
    text = trimPunct(text.replace(/^(?:upon|with|giving|provide|on)\s+/i, ''));
    const n = parseCount(m[1]!);
    const unit = m[2]!.toLowerCase();
    const days = n === null ? null : unit.startsWith('day') ? n : unit.startsWith('week') ? n * 7 : null;
    return { days: { ...g(days, s, m[0]), derived: !unit.startsWith('day') }, text: g(text, s, m[0]) };
  }
  return null;
}

const phrases = (list: string[]) => new RegExp(list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|'), 'iu');
/** Automatic renewal said in the lexicon's other languages (`verlängert sich automatisch`, `tacite reconduction`, `自動更新`). */
const YES_AUTO = phrases(AUTO_RENEWAL_PHRASES.yes);
const NO_AUTO = phrases(AUTO_RENEWAL_PHRASES.no);

function autoRenewal(clauses: string[]) {
  const neg = /\b(?:does|will|shall|do|would)\s+not\s+(?:\w+\s+)?(?:auto[- ]?)?renew|\b(?:doesn['’]t|won['’]t)\s+(?:\w+\s+)?renew|\bnot\s+(?:be\s+)?(?:automatically\s+)?renew(?:ed)?\s+automatically|\bno\s+automatic\s+renewal|\bwill\s+not\s+auto-renew|\b(?:expires?|ends?|terminates?)\s+(?:automatically\s+)?(?:at|on)\s+the\s+end\b.*\bnew\s+(?:order|contract|agreement)|\brequires?\s+a\s+new\s+(?:order|contract|agreement)|\bnot\s+auto[- ]?renew/i;
  const pos = /\b(?:automatically|auto[- ]?)\s*renew|\brenew(?:s|ed)?\s+automatically|\bauto-renew|\bevergreen|\b(?:shall|will)\s+(?:automatically\s+)?renew\s+for\s+(?:an?\s+)?(?:successive|additional|further|subsequent)|\brenews?\s+for\s+(?:an?\s+)?(?:successive|additional|further|subsequent)|\b(?:extended|prolonged)\s+automatically|\bautomatically\s+(?:be\s+)?(?:extended|prolonged)/i;
  for (const c of clauses) {
    // A clause heading (`Auto-renewal.`) is not the language: the sentence under it is.
    if (c.trim().split(/\s+/).length <= 3) continue;
    if (neg.test(c) || NO_AUTO.test(c)) return { language: g(c, c), value: { ...g(false as boolean, c), derived: true } };
    if (pos.test(c) || YES_AUTO.test(c)) return { language: g(c, c), value: { ...g(true as boolean, c), derived: true } };
  }
  return { language: none<string>() as Stated<string>, value: none<boolean>() as Stated<boolean> };
}

function committedSpend(doc: Doc, stmts: string[]): Stated<number> {
  for (const kv of pairs(doc, ['commit', 'committed', 'minimum', 'commitment', 'minimum spend', 'committed spend', 'minimum commitment', 'annual commitment', 'annual committed spend', 'total commitment', 'minimum annual commitment', 'total contract value'], 'has')) {
    const a = findAmounts(kv.value, doc.reading).find((x) => x.currency || x.decimals);
    if (a) return g(a.value, lineOf(doc, kv));
  }
  for (const s of stmts) {
    const m = /\b(?:minimum\s+(?:annual\s+|total\s+)?(?:commitment|spend|purchase|fee)|committed\s+(?:annual\s+|total\s+)?spend|commits?\s+to\s+(?:spend(?:ing)?|pay(?:ing)?|purchas(?:e|ing))|spend\s+commitment)\b/i.exec(s);
    if (!m) continue;
    const a = findAmounts(s.slice(m.index), doc.reading).find((x) => x.currency);
    if (a) return g(a.value, s);
  }
  return none();
}

function paymentTerms(doc: Doc, stmts: string[]): Stated<number> {
  const re = /\bnet\s*[- ]?(\d{1,3})\b|\b(?:payable|due|paid)\s+(?:in\s+full\s+)?within\s+(?:[a-z-]+\s+\()?(\d{1,3})\)?\s+days\b|\bpayment\s+terms?\s*:?\s*(\d{1,3})\s+days\b|(\d{1,3})\)?\s+days\s+(?:net|(?:from|of|after)\s+(?:the\s+)?(?:date\s+of\s+)?(?:the\s+)?invoice)/i;
  for (const kv of pairs(doc, ['payment terms', 'terms', 'payment', 'payment term'])) {
    const m = re.exec(kv.value) ?? /^(?:within\s+)?(\d{1,3})\s+days\b/i.exec(kv.value);
    if (m) return g(Number(m.slice(1).find(Boolean)), lineOf(doc, kv));
  }
  for (const s of stmts) {
    const m = re.exec(s);
    if (m && !/\bnotice\b/i.test(s.slice(Math.max(0, m.index - 30), m.index + 40))) return g(Number(m.slice(1).find(Boolean)), s);
  }
  return none();
}

function priceEscalation(stmts: string[]): Stated<string> {
  const re = /\b(?:fees?|prices?|pricing|rates?|charges|subscription fees?)\s+(?:may|will|shall|can|are\s+subject\s+to|is\s+subject\s+to|to)\s+(?:\w+\s+){0,2}?(?:increase|rise|adjust|change|be\s+(?:increased|adjusted|raised))|\buplift\b|\bescalat|\bCPI\b|\bconsumer\s+price\s+index\b|\bprice\s+(?:increase|adjustment|protection|change)s?\b|\d+(?:\.\d+)?\s?%\s+(?:price\s+)?(?:increase|uplift|rise)\b|\b(?:increase|adjust|raise)\s+(?:the\s+|its\s+|our\s+)?(?:\w+\s+)?(?:fees?|prices?|rates?|pricing)\b/i;
  // `Fees increase by 4% at each annual renewal`, `Subscription fees for each renewal term will increase by five percent`:
  // a fee, a rise a few words on, and its rate or index.
  const rate = /\b(?:fees?|prices?|pricing|rates?|charges)\b[^.;]{0,40}?\b(?:increase[sd]?|rise[sn]?|go\s+up|uplift(?:ed)?)\b[^.;]{0,30}?(?:\d+(?:[.,]\d+)?\s?%|\bpercent\b|\bper\s+cent\b|\bCPI\b|\bindex\b)/i;
  const s = stmts.find((x) => re.test(x) && x.split(' ').length > 4) ?? stmts.find((x) => rate.test(x));
  return s ? g(s, s) : none();
}

const KINDS: [RegExp, Renewal['documentKindGuess']][] = [
  [/\bamendment\b|\baddendum\b/i, 'amendment'],
  [/\border\s+form\b|\bservice\s+order\b|\bsales\s+order\b|\border\s+schedule\b|\bpurchase\s+order\b|\border\s+#|\border\s+no\b/i, 'order_form'],
  [/\brenewal\s+(?:notice|reminder)\b|\bupcoming\s+renewal\b|\bcoming\s+up\s+for\s+renewal\b|\bsubscription\s+renewal\b|\bwill\s+renew\s+on\b|\bnotice\s+of\s+renewal\b|\brenews\s+on\b|\brenewal\s+reminder\b|\breminder\b.*\brenew|\bdue\s+(?:to|for)\s+renew(?:al)?\b|\bis\s+set\s+to\s+renew\b/i, 'renewal_notice'],
  [/\bmaster\s+(?:services?|subscription|software|license|licence)?\s*agreement\b|\bmsa\b/i, 'master_agreement'],
  [/\bterms\s+of\s+(?:service|use)\b|\bterms\s+(?:and|&)\s+conditions\b/i, 'terms_of_service'],
  [/\binvoice\b/i, 'invoice'],
  [/\bquot(?:e|ation)\b|\bproposal\b|\bestimate\b/i, 'quote'],
  // The same kinds in the lexicon's other languages, in the same order.
  [inWords(DOCUMENT_KIND_WORDS.amendment), 'amendment'],
  [inWords(DOCUMENT_KIND_WORDS.order_form), 'order_form'],
  [inWords(DOCUMENT_KIND_WORDS.renewal_notice), 'renewal_notice'],
  [inWords(DOCUMENT_KIND_WORDS.master_agreement), 'master_agreement'],
  [inWords(DOCUMENT_KIND_WORDS.terms_of_service), 'terms_of_service'],
  [inWords(INVOICE_TITLE_WORDS.filter((w) => w !== 'invoice')), 'invoice'],
  [inWords(DOCUMENT_KIND_WORDS.quote), 'quote'],
];

/** The kind of document, derived from the words that say it (a title, a phrase); `other` from its first line. */
function documentKind(doc: Doc): Located<Renewal['documentKindGuess']> {
  // The first lines as read and as written: `INVOICE` in the right-hand column of a letterhead is read after it.
  const top = doc.lines.filter((l) => l.text).slice(0, 3);
  const written = doc.lines.filter((l) => l.text).sort((a, b) => a.at - b.at).slice(0, 3);
  for (const [re, kind] of KINDS) {
    const line = [...top, ...written].find((l) => re.test(l.text));
    if (line) return derivedAt(kind, line.index, re.exec(line.text)![0]);
  }
  // `INVOICE CF-2026-04417` under a letterhead: a line that is only the document's kind and its number is its title.
  const title = doc.lines.filter((l) => l.text).slice(0, 10).find((l) => /^(?:tax\s+)?(?:invoice|order\s+form|quot(?:e|ation)|renewal\s+notice|amendment)(?:\s+(?:no\.?\s*|#\s*)?[A-Z0-9][A-Z0-9-/]*\d[A-Z0-9-/]*)?$/i.test(l.text));
  if (title) for (const [re, kind] of KINDS) if (re.test(title.text)) return derivedAt(kind, title.index, re.exec(title.text)![0]);
  for (const [re, kind] of KINDS.slice(0, 5)) {
    const line = doc.lines.find((l) => re.test(l.text));
    if (line) return derivedAt(kind, line.index, re.exec(line.text)![0]);
  }
  const agreement = top.find((l) => /\bagreement\b/i.test(l.text));
  if (agreement) return derivedAt('master_agreement', agreement.index, /\bagreement\b/i.exec(agreement.text)![0]);
  return derivedAt('other', top[0]?.index ?? 0);
}

// English words of the route's own on top of the lexicon's.
const START_LABELS = [...TERM_START_LABELS, 'start date', 'subscription start date', 'term start', 'term start date', 'start', 'effective date', 'service start date', 'commencement date', 'contract start', 'contract start date', 'subscription start', 'period start', 'service period start'];
const START_PHRASES = [/\b(?:runs|running|valid|effective)\s+from\s+/i, /\bterm\s+(?:begins|starts|commences)\s+on\s+/i, /\b(?:term|subscription|contract|agreement|service)\s+(?:started|began|commenced|start(?:ed)?\s+date\s+(?:was|is))\s+(?:on\s+)?/i, /\bstarting\s+(?:on\s+)?/i];
const END_LABELS = [...TERM_END_LABELS, 'end date', 'subscription end date', 'term end', 'term end date', 'end', 'expiration date', 'expiry date', 'contract end', 'contract end date', 'subscription end', 'period end', 'expires', 'expiry', 'expiration', 'service period end', 'current term ends'];
const END_PHRASES = [/\b(?:runs|running|valid)\s+from\s+.{4,30}?\s+(?:to|until|through)\s+/i, /\bterm\s+(?:ends|expires|will end|will expire)\s+on\s+/i, /\b(?:ends|expires)\s+on\s+/i, /\b(?:through|until)\s+/i];
const RENEWAL_LABELS = RENEWAL_DATE_LABELS;
const RENEWAL_PHRASES = [
  // `verlängert sich automatisch am 1. Juli 2026`, `se renouvelle automatiquement le 1er juillet 2026`.
  new RegExp(`(?:${words(AUTO_RENEWAL_PHRASES.yes)})\\s+(?:\\p{L}+\\s+){0,2}`, 'iu'),/\b(?:renews|will\s+renew|is\s+due\s+to\s+renew|up\s+for\s+renewal)\s+on\s+/i, /\brenewal\s+date\s+(?:is|will\s+be|falls\s+on)\s+/i,
  // `will automatically renew for another one-year term on October 1, 2026`, `renews October 1, 2026`.
  /\brenew(?:s)?\b[^.]{0,50}?\bon\s+/i, /\brenews\s+(?=\p{Lu}\p{Ll}+\s+\d{1,2}\b|\d{1,2}[\s./])/u];

interface C {
  doc: Doc;
  /** Sentences, and clauses (sentences also split at colons). */
  stmts: string[];
  clauses: string[];
  /** The lines a statement (a sentence, clause or line of the document) was read from. */
  linesOf: (statement: string) => number[] | null;
  found: Partial<Renewal>;
  bill: ReturnType<typeof billing>;
  range: ReturnType<typeof dateRange>;
  /** The notice period in days (derived unless stated in days) and as written. */
  notice: { days: Stated<number>; text: Stated<string> };
  auto: ReturnType<typeof autoRenewal>;
}

/** A grounded value located at the statement it was read from: its quote is found there. */
function locate<T>(c: C, stated: Stated<T> | null | undefined): Located<Grounded<T>> | null {
  if (!stated || stated.value === null || stated.value === undefined || !stated.sourceQuote || !stated.statement) return null;
  const lines = c.linesOf(stated.statement);
  if (!lines || lines.length === 0) return null;
  const value = { value: stated.value, sourceQuote: stated.sourceQuote };
  return stated.derived ? derivedAt(value, lines, stated.sourceQuote) : at(value, lines, stated.sourceQuote);
}

function from<T>(name: string, pick: (c: C) => Stated<T> | null) {
  return finder<C, Grounded<T>>(name, (c) => locate(c, pick(c)));
}

/** The only currency the document writes, when no amount named it (`All prices in EUR`). */
function statedCurrency({ doc, stmts }: C): Stated<string> {
  const c = currencyIn(doc.text);
  const s = c ? stmts.find((x) => currencyIn(x) === c) : undefined;
  return c && s ? g(c, s) : none();
}

/** On an invoice, what is billed is its subtotal (`Subtotal  EUR 348.00`), before tax; read with its currency. */
function invoiceSubtotal(doc: Doc): { amount: Stated<number>; currency: Stated<string> } | null {
  for (const l of labelledLines(doc)) {
    if (summaryKind(l.key) !== 'subtotal') continue;
    const a = findAmounts(l.rest, doc.reading).filter((x) => x.currency || x.decimals).pop();
    const line = doc.lines[l.line]!.text;
    if (a) return { amount: g(a.value, line), currency: g(a.currency ?? doc.currency, line) };
  }
  return null;
}

export const RENEWAL_FIELDS: FieldTable<C, Renewal> = {
  documentKindGuess: field('choice', [finder('title words, then the text', ({ doc }) => documentKind(doc))]),
  vendorName: grounded('name', [labelledVendor, mailSender, vendorUnderHeading, legalLetterhead, vendorBetween, signingOrganisation, learnedGrounded('renewal:/vendorName')]),
  product: grounded('name', [from('labelled product, summary or sentence', ({ doc, stmts }) => product(doc, stmts)), learnedGrounded('renewal:/product')]),
  billingAmount: grounded('money', [from('subtotal of an invoice', (c) => (c.found.documentKindGuess === 'invoice' ? invoiceSubtotal(c.doc)?.amount ?? none() : none())), from('fee statement', (c) => c.bill.amount), learnedGrounded('renewal:/billingAmount')]),
  currency: grounded('currency', [from('currency of the invoice subtotal', (c) => (c.found.documentKindGuess === 'invoice' ? invoiceSubtotal(c.doc)?.currency ?? none() : none())), from('currency of the fee', (c) => c.bill.currency), from<string>('currency the document states', (c) => (c.bill.amount.value === null ? statedCurrency(c) : none()))]),
  billingFrequency: grounded('choice', [from('billing period', (c) => c.bill.frequency)]),
  seatCount: grounded('count', [from('seats, users or licences', ({ doc, stmts }) => seatCount(doc, stmts)), learnedGrounded('renewal:/seatCount')]),
  contractStartDate: grounded('date', [from('date range', (c) => c.range.start), from('labelled start', ({ doc, stmts }) => dateField(doc, stmts, START_LABELS, START_PHRASES, /amendment/i)), learnedGrounded('renewal:/contractStartDate')]),
  contractEndDate: grounded('date', [from('date range', (c) => c.range.end), from('labelled end', ({ doc, stmts }) => dateField(doc, stmts, END_LABELS, END_PHRASES)), learnedGrounded('renewal:/contractEndDate')]),
  // A term renews when it ends: without its own renewal date, the end of the current term is it.
  renewalDate: grounded('date', [from('renewal date', ({ doc, stmts }) => dateField(doc, stmts, RENEWAL_LABELS, RENEWAL_PHRASES)), from('end of the term', (c) => endOfTerm(c)), learnedGrounded('renewal:/renewalDate')]),
  noticePeriodDays: grounded('count', [from('notice sentence', (c) => c.notice.days), learnedGrounded('renewal:/noticePeriodDays')]),
  noticePeriodText: grounded('statement', [from('notice sentence', (c) => c.notice.text)]),
  autoRenewalLanguage: grounded('statement', [from('renewal clause', (c) => c.auto.language)]),
  autoRenewal: grounded('flag', [from('renewal clause', (c) => c.auto.value)]),
  committedSpend: grounded('money', [from('commitment', ({ doc, stmts }) => committedSpend(doc, stmts))]),
  paymentTermsDays: grounded('count', [from('payment terms', ({ doc, stmts }) => paymentTerms(doc, stmts)), learnedGrounded('renewal:/paymentTermsDays')]),
  priceEscalationText: grounded('statement', [from('price increase sentence', ({ stmts }) => priceEscalation(stmts))]),
};

/** The end of the current term as its renewal date: the quote that states the end (derived: the conventions equate them). */
function endOfTerm(c: C): Stated<string> {
  const end = c.found.contractEndDate as Grounded<string> | undefined;
  return end?.value && end.sourceQuote ? { ...end, statement: end.sourceQuote, derived: true } : none();
}

/**
 * Where each statement stands: sentences and clauses by their place in the text, a line of the document by its
 * line; the lines they cover are where their quotes are found.
 */
function statementLines(doc: Doc): (statement: string) => number[] | null {
  const placed = new Map<string, number[]>();
  for (const s of [...sentencesIn(doc.text), ...sentencesIn(doc.text, { splitColons: true })]) if (!placed.has(s.text)) placed.set(s.text, linesOf(doc, s.start, s.end));
  return (statement) => {
    const known = placed.get(statement);
    if (known) return known;
    const line = doc.lines.find((l) => l.text === statement) ?? doc.lines.find((l) => l.text.includes(clean(statement)));
    return line ? [line.index] : null;
  };
}

/** `overall_status` is not the engine's to say: the grounding step sets it from what the quotes prove. */
export function extractRenewal(doc: Doc, rec: Recorder = { route: 'renewal' }): Renewal {
  const stmts = sentences(doc.text);
  const clauses = sentences(doc.text, { splitColons: true });
  const context: C = { doc, stmts, clauses, linesOf: statementLines(doc), found: {}, bill: billing(doc, stmts), range: dateRange(doc, stmts), notice: notice(stmts) ?? noticeInLanguage(doc, stmts) ?? { days: none<number>() as Stated<number>, text: none<string>() as Stated<string> }, auto: autoRenewal(clauses) };
  const data = runTable(RENEWAL_FIELDS, context, rec);
  // A document with no line to read a kind from is `other`, which claims nothing.
  data.documentKindGuess ??= 'other';
  return data;
}
