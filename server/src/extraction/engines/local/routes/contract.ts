// Contract: title, parties and roles, term dates, governing law, value, and clause lists by section heading.
import type { FixedData } from '../engine-types.js';
import { headLines, type Doc, type Section } from '../segment/document.js';
import { namesUnderHeadings, pairs, sectionsFor } from '../segment/lookup.js';
import { sentencesIn } from '../segment/sentences.js';
import { clean, labelHas, labelIs, trimPunct } from '../segment/text.js';
import { partyName } from '../segment/organisations.js';
import {
  AGREEMENT_WORDS, BILLING_PERIOD_WORDS, CONTRACT_VALUE_LABELS, PAY_PERIOD_WORDS, GOVERNING_LAW_LABELS, LAW_BY_ADJECTIVE, LEGAL_FORM_STRONG_SOURCE, OBLIGATION_HEADINGS, PARTY_ROLES, RENEWAL_HEADINGS, TERM_END_LABELS,
  TERM_START_LABELS, TERMINATION_HEADINGS,
} from '../lexicon.js';
import { dateAfterPhraseAt, findDates, parseDate } from '../normalise/dates.js';
import { currencyIn } from '../normalise/currency.js';
import { findAmounts } from '../normalise/money.js';
import { field, finder, list, runTable, type FieldTable, type Recorder } from '../fields/finder.js';
import { at, derivedAt, inText, linesOf, sectionLines, valueOf, type Located } from '../fields/located.js';
import { documentCurrency } from './currency-of.js';
import { learned } from '../learned/learned-finder.js';

type Contract = FixedData['contract'];
type Parties = Contract['parties'];
type Party = Parties[number];
/** Parties, each read from its lines. */
type ReadParties = Located<Party>[];

const ROLES = PARTY_ROLES;
// English words of the route's own on top of the lexicon's (a signing date may name the start: `date of agreement`).
const EFFECTIVE = [...TERM_START_LABELS, 'effective date', 'commencement date', 'start date', 'effective', 'commencement', 'date of agreement', 'agreement date', 'effective as of', 'start of term', 'term start', 'lease start', 'start'];
const EXPIRY = [...TERM_END_LABELS, 'expiration date', 'expiry date', 'expiry', 'expiration', 'end date', 'end of term', 'termination date', 'term end', 'lease end', 'end', 'expires', 'term ends'];
const VALUE = [...CONTRACT_VALUE_LABELS, 'total value', 'contract value', 'total contract value', 'total fee', 'total fees', 'total lease payments', 'total consideration', 'contract price', 'total price', 'fees', 'fee', 'total amount', 'contract amount', 'consideration', 'compensation', 'value'];

/** A title naming a kind of agreement, in any language (`Dienstleistungsvertrag`: German compounds end in the word). */
const TITLE_RE = new RegExp(`(?:agreement|contract|lease|addendum|memorandum|\\bnda|\\bterms|\\bdeed|licen[cs]e|engagement letter|${AGREEMENT_WORDS.filter((w) => !/^(?:agreement|contract|lease|addendum|memorandum|nda|terms|deed|licen[cs]e|engagement letter)$/.test(w)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}])`, 'iu');

/** `JANITORIAL SERVICES AGREEMENT        Agreement No. JSA-2026-118`: a heading naming a kind of agreement; its first column. */
const titleLine = finder<C, string>('heading naming an agreement', ({ doc }) => {
  const first = headLines(doc, 8).find((l) => l.text && TITLE_RE.test(l.text) && l.text.length <= 90 && !/[.;]$/.test(l.text) && !/:/.test(l.text));
  return first ? at(clean(first.raw.trim().split(/\s{3,}/)[0]!), first.index) : null;
});

/** `MUTUAL NDA between Thames Ltd and Orbital Inc., governed by ...`: a capitalised name of the document, then `between`. */
const titleBeforeBetween = finder<C, string>('name before between', ({ doc }) => {
  for (const l of headLines(doc, 8)) {
    const m = TITLE_BEFORE_BETWEEN.exec(l.text);
    if (m && TITLE_RE.test(m[1]!) && !/^(?:this|the|that|each|both)\b/i.test(m[1]!)) return at(clean(m[1]!), l.index);
  }
  return null;
});

const TITLE_BEFORE_BETWEEN = /^([A-Z][\p{L}'’&-]*(?:\s+(?:[A-Z][\p{L}'’&-]*|of|for|and|on|to|the)){0,7}),?\s+(?:by\s+and\s+)?between\s/u;

/** A name ending in a legal form (`Thames Ltd`, `Orbital Freight Systems, Inc.`, `Kovac Digital GmbH & Co. KG`). */
const LEGAL_NAME = String.raw`[A-Z][\p{L}\p{N}&'’.-]*(?:\s+(?:&\s+)?[\p{L}\p{N}&'’.-]+){0,6}?,?\s+${LEGAL_FORM_STRONG_SOURCE}\.?(?:\s+&\s+Co\.?\s+KG)?`;
/** `between Thames Ltd and Orbital Inc.` with no roles: both names end in a legal form, so both are organisations. */
const BETWEEN_NAMES = new RegExp(String.raw`\bbetween\s+(${LEGAL_NAME})\s+and\s+(${LEGAL_NAME})(?![\p{L}\p{N}])`, 'u');

/** `Lessor: Name`, `Party A: Name (note)`, `Disclosing Party: Name`. */
function pairParties(doc: Doc): ReadParties {
  const out: ReadParties = [];
  for (const kv of doc.kvs) {
    // `For the Client: Jane Roe` under the signatures names who signs, not a party.
    if (/^(?:for|on behalf of|signed|by)\b/.test(kv.key)) continue;
    if (!kv.value) continue;
    const party = /\bparty\s+([a-z0-9]|one|two|1|2)$/i.exec(kv.label);
    let role: string | null = null;
    if (party) role = `Party ${party[1]!.toUpperCase()}`;
    else if (labelIs(kv.key, ROLES) || labelIs(kv.key.replace(/^sub[- ]?/, ''), ROLES)) role = kv.label;
    else if (labelHas(kv.key, ROLES) && kv.key.split(' ').length <= 3 && !/name|address|signature|sign|date|email|phone|title|obligation|notice/i.test(kv.key)) role = kv.label.replace(/^(?:the)\s+/i, '');
    if (!role) continue;
    const name = partyName(kv.value);
    if (!/\p{Lu}/u.test(name) || name.split(' ').length > 10) continue;
    out.push(at({ name, role: clean(role.replace(/\s+/g, ' ')) }, kv.line));
  }
  // A role heading alone (`CONTRACTOR`, `Client:`, often side by side with the other party's) has the name below it.
  for (const h of namesUnderHeadings(doc, ROLES)) {
    const name = partyName(h.name);
    if (out.some((p) => p.value.name === name) || name.split(' ').length > 10) continue;
    const role = h.label === h.label.toUpperCase() ? h.label.charAt(0) + h.label.slice(1).toLowerCase() : h.label;
    out.push(at({ name, role }, [h.line - 1, h.line].filter((i) => i >= 0)));
  }
  return out;
}

/** `between X, a Delaware corporation ("Client"), and Y ("Provider")`. */
function proseParties(doc: Doc): ReadParties {
  const m = /\b(?:by and )?between\s*:?\s+([\s\S]{5,900})/i.exec(doc.text);
  if (!m) return [];
  const lines = linesOf(doc, m.index, m.index + m[0].length);
  // The parties run to the first blank line, or, when each stands in its own paragraph (`between:` / party /
  // `and` / party), to the first numbered clause or recital.
  const firstPara = /^([\s\S]*?)(?:\n\s*\n|$)/.exec(m[1]!)![1]!;
  const span = clean(/\(\s*(?:the\s+|hereinafter\s+)?["“'][^"”']+["”']\s*\)\s*[,;.]?\s*$/.test(clean(firstPara)) || !/["“]/.test(firstPara)
    ? m[1]!.split(/\n\s*(?:\d{1,2}\.|article|section|whereas|recitals|now,? therefore|background)\b/i)[0]!
    : firstPara);
  const out: ReadParties = [];
  const re = /(?:^|\)\s*,?\s*(?:and\s+)?|\band\s+)([A-Z][^()"“]*?)\s*(?:,\s*(?:a|an)\s+[^()]*?)?\s*\(\s*(?:the\s+|hereinafter\s+)?["“']([^"”']+)["”']\s*\)/g;
  for (let p = re.exec(span); p; p = re.exec(span)) {
    const name = partyName(p[1]!);
    if (name) out.push(at({ name, role: p[2]! }, lines));
  }
  return out;
}

/** `Effective Date: 1 March 2026`: a pair whose label is (or holds) one of the labels. */
const labelledDate = (labels: string[]) => finder<C, string>('labelled date', ({ doc }) => {
  for (const how of ['is', 'has'] as const) for (const kv of pairs(doc, labels, how)) { const d = parseDate(kv.value, doc.dateOptions); if (d) return at(d, kv.line); }
  return null;
});

/** `This Agreement commences on 1 March 2026`: the date after one of the phrases, tried in order. */
const dateAfter = (phrases: RegExp[]) => finder<C, string>('date after a phrase', ({ doc }) => {
  for (const re of phrases) {
    const d = dateAfterPhraseAt(doc.text, re, doc.dateOptions);
    if (d) return inText(d.iso, d.index, d.end);
  }
  return null;
});

/** `English law` names a jurisdiction by its adjective. */
const LAW_ADJECTIVES: Record<string, string> = {
  english: 'England and Wales', welsh: 'England and Wales', scots: 'Scotland', scottish: 'Scotland', irish: 'Ireland', german: 'Germany', french: 'France',
  dutch: 'the Netherlands', swiss: 'Switzerland', swedish: 'Sweden', danish: 'Denmark', norwegian: 'Norway', finnish: 'Finland', spanish: 'Spain',
  italian: 'Italy', austrian: 'Austria', belgian: 'Belgium', polish: 'Poland', portuguese: 'Portugal', luxembourg: 'Luxembourg', canadian: 'Canada',
  australian: 'Australia', singapore: 'Singapore', japanese: 'Japan', indian: 'India', 'new york': 'New York', delaware: 'Delaware', california: 'California',
};

/** A jurisdiction, where it was read in the text it came from, and whether it was named by an adjective (derived). */
interface Law { value: string; start: number; end: number; derived: boolean }

function lawByAdjective(text: string): Law | null {
  const m = /\b(?:governed\s+by|subject\s+to|construed\s+(?:in\s+accordance\s+with|under))\s+(?:the\s+)?([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+law\b([^.\n]*)/.exec(text);
  if (!m) return null;
  // `... and the courts of England and Wales`: the courts named in the same sentence say which part.
  const courts = /\bcourts?\s+of\s+(?:the\s+)?([A-Z][\p{L}]+(?:\s+(?:and\s+)?[A-Z][\p{L}]+){0,3})/u.exec(m[2]!);
  const adjective = LAW_ADJECTIVES[m[1]!.toLowerCase()];
  const end = m.index + m[0].length;
  if (courts && (!adjective || courts[1]!.includes(adjective.split(' ')[0]!) || adjective.includes(courts[1]!.split(' ')[0]!))) {
    const from = end - m[2]!.length + courts.index + courts[0].length - courts[1]!.length;
    return { value: courts[1]!, start: from, end: from + courts[1]!.length, derived: false };
  }
  return adjective ? { value: adjective, start: m.index, end, derived: true } : null;
}

/** `Es gilt deutsches Recht.`, `soumis au droit français`, `prawo polskie`: a legal system named by its adjective in its own language. */
function lawInLanguage(text: string): Law | null {
  for (const [re, value] of LAW_BY_ADJECTIVE) {
    const m = re.exec(text);
    if (m) return { value, start: m.index, end: m.index + m[0].length, derived: true };
  }
  return null;
}

/** `Governing law: ...`, `governed by the laws of the State of New York`, `governed by English law`. */
function governingLaw(doc: Doc): Located<string> | null {
  const kv = pairs(doc, GOVERNING_LAW_LABELS).find((k) => k.value);
  // Where a jurisdiction read from `source` stands: on the pair's line, or at its place in the text.
  const locate = (law: Law) => (kv ? (law.derived ? derivedAt(law.value, kv.line) : at(law.value, kv.line)) : inText(law.value, law.start, law.end, law.derived));
  const byAdjective = lawByAdjective(kv ? kv.value : doc.text) ?? lawInLanguage(kv ? kv.value : doc.text);
  if (byAdjective && !(kv ? /\blaws?\s+of\b/i.test(kv.value) : /\blaws\s+of\b/i.test(doc.text))) return locate(byAdjective);
  const source = kv ? kv.value : doc.text;
  const m = /\b(?:governed\s+by|construed\s+in\s+accordance\s+with|subject\s+to)(?:\s+and\s+construed\s+in\s+accordance\s+with)?\s+the\s+laws?\s+of\s+([^.;\n]+)/i.exec(source)
    ?? (kv ? /^(?:the\s+laws?\s+of\s+)?(.+)$/i.exec(kv.value) : null);
  if (!m) return null;
  let j = m[1]!.replace(/^(?:the\s+)?(?:state|commonwealth|province|republic|kingdom|federal republic)\s+of\s+/i, '').replace(/^the\s+/i, '');
  j = j.split(/,\s*(?:without|excluding|and\s+the|including|notwithstanding)|\s+(?:without|excluding|and\s+(?:each|the\s+parties)|,?\s*USA?\b)/i)[0]!;
  const value = trimPunct(clean(j));
  if (!value) return null;
  if (kv) return at(value, kv.line);
  const from = m.index + m[0].length - m[1]!.length;
  return at(value, linesOf(doc, from, from + m[1]!.length));
}

/** `Total contract value: $96,500`, `for a total of $46,200.00 over the initial term`, with the currency it is written in. */
interface Value { value: number | null; currency: string | null; lines: number[]; raw?: string }

const periodWords = [...PAY_PERIOD_WORDS.month.words, ...PAY_PERIOD_WORDS.year.words, ...PAY_PERIOD_WORDS.week.words, ...PAY_PERIOD_WORDS.hour.words, ...BILLING_PERIOD_WORDS.monthly,
  ...BILLING_PERIOD_WORDS.annual, ...BILLING_PERIOD_WORDS.quarterly].filter((w) => w.length > 3 && w !== 'brutto');
const periodUnits = [...PAY_PERIOD_WORDS.month.units, ...PAY_PERIOD_WORDS.year.units, ...PAY_PERIOD_WORDS.week.units, ...PAY_PERIOD_WORDS.hour.units];
const escapeAll = (list: string[]) => [...new Set(list)].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
/** A price stated per period (`per month`, `mensuales`, `/Monat`, `pro Jahr`), in any language of the lexicon. */
const PERIODIC = new RegExp(`(?<![\\p{L}])(?:${escapeAll(periodWords)})(?![\\p{L}])|(?:\\/\\s*|(?<![\\p{L}])(?:per|pro|par|por|al|je|za|a)\\s+)(?:${escapeAll(periodUnits)})(?![\\p{L}])`, 'iu');

function totalValue(doc: Doc): Value {
  const none: Value = { value: null, currency: null, lines: [] };
  if (/\bno\s+(?:fees?|payments?|consideration)\s+(?:are|is|shall be)\s+(?:payable|due)/i.test(doc.text) && !pairs(doc, VALUE).length) return none;
  const distractor = /late|penalt|interest|hourly|monthly|weekly|annual|per|deposit|setup|set up|rate/;
  for (const kv of [...pairs(doc, VALUE, 'is'), ...pairs(doc, ['total', ...VALUE], 'has').filter((k) => !distractor.test(k.key))]) {
    // `Precio: 1.850,00 € mensuales`, `Miete: 900 € pro Monat`: a price per period is no total value.
    if (PERIODIC.test(kv.value)) continue;
    const a = findAmounts(kv.value, doc.reading).find((x) => x.currency || x.decimals);
    if (a) return { value: a.value, currency: a.currency ?? currencyIn(kv.value) ?? doc.currency, lines: [kv.line], raw: a.raw };
  }
  // `total contract price of ...`, `for a total of $46,200.00 over the initial term`.
  const m = /\btotal\s+(?:[a-z-]+\s+){0,2}?(?:fee|fees|value|price|consideration|amount|sum|rent|lease payments|payments|cost|compensation)\b([^;\n]{0,50})|\b(?:for|of)\s+a\s+total\s+(?:of\s+)?([^;\n]{0,30})/i.exec(doc.text);
  if (m) {
    const a = findAmounts(m[1] ?? m[2]!, doc.reading).find((x) => x.currency);
    if (a) return { value: a.value, currency: a.currency, lines: linesOf(doc, m.index, m.index + m[0].length), raw: a.raw };
  }
  return none;
}

/** The statements of a section: its list items, or its paragraph as one clause. */
function clausesOf(s: Section): Located<string>[] {
  const lines = sectionLines(s);
  if (s.items.length > 0) return s.items.map((i) => at(clean(i), lines));
  const body = clean(s.body.join(' '));
  return body ? [at(body, lines)] : [];
}

function clauseList(doc: Doc, headings: string[], mention: RegExp): Located<string>[] {
  const out: Located<string>[] = [];
  const has = (c: string) => out.some((o) => o.value === c);
  for (const s of sectionsFor(doc, headings)) for (const c of clausesOf(s)) if (!has(c.value)) out.push(c);
  if (out.length === 0) {
    // No heading: sentences that state the matter themselves.
    for (const s of sentencesIn(doc.text)) if (mention.test(s.text) && s.text.length > 30 && !has(s.text)) out.push(inText(s.text, s.start, s.end));
  }
  return out.filter((c) => c.value.length > 15);
}

/** Without an obligations heading: list items that bind a party (`shall`, `must`, `agrees to`). */
function dutyItems(doc: Doc): Located<string>[] {
  const out: Located<string>[] = [];
  const binds = (t: string) => /\b(?:shall|must|agrees?\s+to|will)\b/i.test(t) && !/\bshall\s+not\s+be\s+liable|\bgoverned\b|\bconstrued\b/i.test(t);
  const skip = (s: Section) => /terminat|renew|law|jurisdiction|notice|term$|definition|interpretation|entire|severab|counterpart|assignment|waiver|payment|compensation|fees?$/i.test(s.heading);
  for (const s of doc.sections) if (!skip(s)) for (const item of s.items) if (binds(item)) out.push(at(clean(item), sectionLines(s)));
  if (out.length > 0) return out;
  // No listed duties: the `shall` sentences of numbered clauses (`1. SERVICES. Consultant shall provide ...`).
  for (const s of doc.sections) {
    if (skip(s) || s.items.length > 0 || !/^\d/.test(doc.lines[s.line]?.text ?? '')) continue;
    for (const sentence of sentencesIn(s.body.join(' '))) if (/\b(?:shall|must|agrees?\s+to)\b/i.test(sentence.text) && binds(sentence.text)) out.push(at(sentence.text, sectionLines(s)));
  }
  return out;
}

/** `(1) Name, of address ("Supplier")` items under a Parties heading. */
function listedParties(doc: Doc): ReadParties {
  return sectionsFor(doc, ['parties', 'the parties', 'between']).flatMap((s) => s.items.map((item) => ({ item, lines: sectionLines(s) }))).flatMap(({ item, lines }) => {
    const m = /^(.+?)(?:,|\s+\().*\(\s*(?:the\s+|hereinafter\s+)?["“]([^"”]+)["”]\s*\)\s*[.;,]?\s*(?:and)?$/.exec(item);
    return m ? [at({ name: partyName(m[1]!), role: m[2]! }, lines)] : [];
  });
}

/** `X between A Ltd and B Inc.` with no roles: both names end in a legal form, so both are organisations. */
function namesBetween(doc: Doc): ReadParties {
  const m = BETWEEN_NAMES.exec(doc.text);
  if (!m) return [];
  const lines = linesOf(doc, m.index, m.index + m[0].length);
  return [at({ name: clean(m[1]!), role: null }, lines), at({ name: clean(m[2]!), role: null }, lines)];
}

/** The parties by their roles: labelled pairs; else a Parties list or the preamble, whichever names more; else a bare `between`. */
const parties = finder<C, Parties>('roles, party list or preamble', ({ doc }): ReadParties => {
  let found = pairParties(doc);
  if (found.length < 2) {
    const listed = listedParties(doc);
    if (listed.length >= 2) found = listed;
  }
  if (found.length < 2) {
    const prose = proseParties(doc);
    if (prose.length >= found.length) found = prose;
  }
  return found.length ? found : namesBetween(doc);
});


/** A section headed `Obligations`, `Responsibilities`: its items or paragraph. */
const obligationsSection = finder<C, string[]>('obligations section', ({ doc }) =>
  sectionsFor(doc, OBLIGATION_HEADINGS.filter((h) => !['obligation', 'undertakings', 'lessee s obligations'].includes(h))).length ? clauseList(doc, OBLIGATION_HEADINGS, /\bshall\s+(?!not\s+be\s+liable)/i) : null);

interface C { doc: Doc; found: Partial<Contract>; value: Value }

export const CONTRACT_FIELDS: FieldTable<C, Contract> = {
  title: field('title', [titleLine, titleBeforeBetween, learned('contract:/title')]),
  parties: list('object', [parties], { name: 'name', role: 'title' }),
  // The term's own start (`starts on`) wins over the signing date (`made on`).
  effectiveDate: field('date', [labelledDate(EFFECTIVE), dateAfter([/\b(?:commenc(?:es|ing|e)|starts?|begins?|beginning|starting)\s+on\s+/i, /\b(?:runs|running|is\s+valid|continues)\s+from\s+/i, /\b(?:comes?|came|enters?|entered)\s+into\s+(?:force|effect)\s+(?:on|as\s+of|from)\s+/i, /\beffective\s+(?:as\s+of|from|on)\s+/i, /\b(?:takes?|took|shall\s+take)\s+effect\s+(?:on|from|as\s+of)\s+/i, /\b(?:entered\s+into|made|dated)\s+(?:as\s+of|on)\s+/i, /\beffective\s+/i]), learned('contract:/effectiveDate')]),
  // An end equal to the start is the start read twice.
  expirationDate: field('date', [labelledDate(EXPIRY), dateAfter([/\b(?:expir(?:es|e|ing)|terminat(?:es|e|ing)|ends?|ending)\s+on\s+/i, /\bcontinues?\s+(?:in\s+(?:full\s+)?force\s+)?until\s+/i, /\buntil\s+/i, /\bthrough\s+/i])]
    .map((f) => finder<C, string>(f.name, (c) => { const d = f.find(c); return d && valueOf(d) !== c.found.effectiveDate ? d : null; })).concat(learned<C, string>('contract:/expirationDate'))),
  governingLaw: field('place', [finder('governing law clause or label', ({ doc }) => governingLaw(doc)), learned('contract:/governingLaw')]),
  totalValue: field('money', [finder('total value', (c) => (c.value.value !== null ? at(c.value.value, c.value.lines, c.value.raw) : null)), learned('contract:/totalValue')]),
  currency: field('currency', [
    finder('currency of the total value', (c) => (c.value.value !== null && c.value.currency ? at(c.value.currency, c.value.lines) : null)),
    finder('document currency beside a total value', (c) => (c.value.value !== null && c.value.currency === c.doc.currency ? documentCurrency(c.doc) : null)),
  ]),
  terminationClauses: list('statement', [finder<C, string[]>('termination section or sentences', ({ doc }) => clauseList(doc, TERMINATION_HEADINGS, /\bterminat/i))]),
  renewalClauses: list('statement', [finder<C, string[]>('renewal section or sentences', ({ doc }) => clauseList(doc, RENEWAL_HEADINGS, /\brenew|\bextend(?:ed)?\s+for\b/i))]),
  keyObligations: list('statement', [obligationsSection, finder<C, string[]>('binding list items', ({ doc }) => dutyItems(doc))]),
};

export function extractContract(doc: Doc, rec: Recorder = { route: 'contract' }): Contract {
  return runTable(CONTRACT_FIELDS, { doc, found: {}, value: totalValue(doc) }, rec);
}
