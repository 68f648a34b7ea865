// Job posting: title, company, place, employment type, pay range, the three headed lists, remote, date.
import type { FixedData } from '../engine-types.js';
import { topLines, type Doc, type Section } from '../segment/document.js';
import { pair, pairs, sectionsFor } from '../segment/lookup.js';
import { clean, dropParens, trimPunct } from '../segment/text.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { DOLLAR_CODES, currencyIn } from '../normalise/currency.js';
import { findAmounts } from '../normalise/money.js';
import {
  BENEFIT_HEADINGS, COMPANY_LABELS, EMPLOYMENT_TYPE_LABELS, EMPLOYMENT_TYPE_WORDS, JOB_TITLE_LABELS, LEGAL_FORM_END, LEGAL_FORM_STRONG_SOURCE, LOCATION_LABELS, ORGANISATION_WORD,
  PAY_LABELS, PAY_PERIOD_WORDS, PER_WORDS, POSTED_LABELS, REQUIREMENT_HEADINGS, RESPONSIBILITY_HEADINGS, WORKPLACE_LABELS, WORKPLACE_WORDS,
} from '../lexicon.js';
import { field, finder, group, list, runTable, type FieldTable, type Recorder } from '../fields/finder.js';
import { at, derivedAt, inText, mapLocated, sectionLines, valueOf, type Located } from '../fields/located.js';
import { learned } from '../learned/learned-finder.js';

type Job = FixedData['job-posting'];

const TITLE_LABELS = JOB_TITLE_LABELS;
const TYPE_LABELS = EMPLOYMENT_TYPE_LABELS;
const REQUIREMENTS = REQUIREMENT_HEADINGS;
const RESPONSIBILITIES = RESPONSIBILITY_HEADINGS;
const BENEFITS = BENEFIT_HEADINGS;

const escapeWords = (words: readonly string[]) => [...words].sort((x, y) => y.length - x.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
/** Any of `words` as whole words, in any language (a pattern for `RegExp`'s `iu` flags). */
const wholeWords = (words: readonly string[]) => `(?<![\\p{L}])(?:${escapeWords(words)})(?![\\p{L}])`;

type ListKind = 'requirements' | 'responsibilities' | 'benefits';

/** A list heading the synonym lists do not name, read by its words (`What we expect`, `You bring`, `Why us`). */
function listKind(heading: string): ListKind | null {
  const h = heading.toLowerCase();
  if (/\b(?:offer|perks?|benefits?|rewards?|why (?:join|us|work)|you(?:'|’)ll get|you get|in return)\b|^why\b/.test(h)) return 'benefits';
  if (/\b(?:requir\w*|qualif\w*|expect\w*|bring|need|looking for|profile|skills?|must|ideal|candidate|background|competenc\w*|who you are|about you)\b/.test(h)) return 'requirements';
  if (/\b(?:responsib\w*|dut(?:y|ies)|you(?:'|’)ll do|you will do|will you do|role|tasks?|involves?|day[- ]to[- ]day|mission|your day)\b/.test(h)) return 'responsibilities';
  return null;
}

const TYPES: [RegExp, Job['employmentType']][] = [
  [new RegExp(`\\bintern(?:ship)?\\b|\\bwerkstudent|\\bpraktikum|${wholeWords(EMPLOYMENT_TYPE_WORDS.internship)}`, 'iu'), 'internship'],
  [new RegExp(`\\bpart[- ]?time\\b|\\bteilzeit\\b|${wholeWords(EMPLOYMENT_TYPE_WORDS.part_time)}`, 'iu'), 'part_time'],
  // `unbefristet` is permanent: `befristet` only as a word of its own.
  [new RegExp(`\\btemporary\\b|\\btemp\\b|\\bfixed[- ]term\\b|\\bseasonal\\b|\\bcover\\b|(?<!un)befristet|${wholeWords(EMPLOYMENT_TYPE_WORDS.temporary)}`, 'iu'), 'temporary'],
  [new RegExp(`\\bcontract(?:or)?\\b|\\bfreelance\\b|\\bb2b\\b|\\bconsultan|${wholeWords(EMPLOYMENT_TYPE_WORDS.contract)}`, 'iu'), 'contract'],
  [new RegExp(`\\bfull[- ]?time\\b|\\bpermanent\\b|\\bvollzeit\\b|\\bfte\\b|${wholeWords(EMPLOYMENT_TYPE_WORDS.full_time)}`, 'iu'), 'full_time'],
];

/** `Employment type: Full-time`. */
const labelledType = finder<C, Job['employmentType']>('labelled type', ({ doc }) => {
  for (const kv of pairs(doc, TYPE_LABELS)) for (const [re, t] of TYPES) { const m = re.exec(kv.value); if (m) return derivedAt(t, kv.line, m[0]); }
  return null;
});

/** `Summer Intern, Product Design`: the title says it. */
const typeInTitle = finder<C, Job['employmentType']>('type word in the title', ({ found, head }) => {
  const title = head.titlePair ?? head.hiringPair ?? head.titleLine;
  if (found.title && title) for (const [re, t] of TYPES) { const m = re.exec(found.title); if (m) return { ...derivedAt(t, title.lines ?? [], m[0]) }; }
  return null;
});

/** `Full-time | On-site` near the top (`contract` there is too often another word's: `contract management`). */
const typeNearTop = finder<C, Job['employmentType']>('type word near the top', ({ doc }) => {
  const top = doc.lines.slice(0, 15);
  for (const [re, t] of TYPES) {
    if (t === 'contract') continue;
    const line = top.find((l) => re.test(l.text));
    if (line) return derivedAt(t, line.index, re.exec(line.text)![0]);
  }
  return null;
});

/** A period after a figure: `per hour`, `/Monat`, `par mois`, `por hora`, or a word that says it alone (`hourly`, `jährlich`, `年収`). */
const period = (p: keyof typeof PAY_PERIOD_WORDS, english: string) =>
  new RegExp(`${english}|(?:${wholeWords(PER_WORDS)}\\s*|\\/\\s*)(?:${escapeWords(PAY_PERIOD_WORDS[p].units)})(?![\\p{L}])|${wholeWords(PAY_PERIOD_WORDS[p].words)}`, 'iu');
const PERIODS: [RegExp, NonNullable<Job['salaryRange']['period']>][] = [
  [period('hour', String.raw`\b(?:per|an|a|\/)\s*(?:hour|hr)\b|\bhourly\b|\bph\b|\/h\b|\bstunde`), 'hour'],
  [period('day', String.raw`\b(?:per|a|\/)\s*day\b|\bdaily\b|\bday rate\b|\bper diem\b`), 'day'],
  [period('week', String.raw`\b(?:per|a|\/)\s*week\b|\bweekly\b`), 'week'],
  [period('month', String.raw`\b(?:per|a|\/)\s*month\b|\bmonthly\b|\bpcm\b|\bmonat`), 'month'],
  [period('year', String.raw`\b(?:per|a|\/)\s*(?:year|annum|yr)\b|\bannual(?:ly)?\b|\bp\.?a\.?(?=\W|$)|\byearly\b|\bjahr|\bbrutto\b`), 'year'],
];

/** The pay range, and the line it was read from. */
type Pay = Job['salaryRange'] & { line: number | null };

/** `Salary: £11.50 - £12.50 per hour`, a pay line with a currency and a pay word; its period from the words after it. */
function salary(doc: Doc): Pay {
  const empty = { min: null, max: null, currency: null, period: null, line: null };
  const candidates = [...pairs(doc, PAY_LABELS).map((kv) => ({ c: kv.value, line: kv.line })), ...doc.lines.filter((l) => /[$€£]|\b(?:USD|EUR|GBP|CAD|AUD)\b/.test(l.text) && /\b(?:salary|pay|per|hour|year|annum|compensation|rate|monthly|hourly|weekly|daily|annually|month|week|day|stipend|wage)\b/i.test(l.text)).map((l) => ({ c: l.text, line: l.index }))];
  for (const { c, line } of candidates) {
    const found = findAmounts(c, doc.reading).filter((a) => a.value > 0 && !/^\d+(?:[.,]\d+)?\s*%/.test(c.slice(a.index)) && !/^\d+\+?\s*(?:years?|hours?|days?|months?|weeks?)\b/i.test(c.slice(a.index)));
    if (found.length === 0) continue;
    // A range: two figures joined by a dash or `to` (`£11.50 - £12.50`, `A$850 – A$950`, `45k to 55k`).
    const a = found[0]!, b = found[1];
    const isRange = !!b && /^\s*(?:-|–|—|to|bis|and)\s*$/i.test(c.slice(a.end, b.index));
    const amounts = isRange ? [a, b!] : [a];
    let currency = amounts.find((x) => x.currency)?.currency ?? currencyIn(c) ?? null;
    // `$34.50 – $37.00 per hour (AUD)`: a bare `$` is the dollar its line, else its document, names.
    if (currency === 'USD' && amounts.every((x) => !x.currency || /^\$/.test(x.raw))) {
      const named = new RegExp(`(?<![A-Za-z])(${[...DOLLAR_CODES].join('|')})(?![A-Za-z])`).exec(c)?.[1];
      currency = named ?? (doc.currency && DOLLAR_CODES.has(doc.currency) ? doc.currency : currency);
    }
    if (!currency && !isRange) continue;
    const values = amounts.map((x) => x.value);
    const rest = c.slice(amounts[amounts.length - 1]!.end);
    const period = PERIODS.find(([re]) => re.test(rest))?.[1] ?? PERIODS.find(([re]) => re.test(c))?.[1] ?? null;
    return { min: Math.min(...values), max: Math.max(...values), currency: currency ?? doc.currency, period, line };
  }
  return empty;
}

const ON_SITE = new RegExp(`\\bhybrid\\b|\\bon[- ]?site\\b|\\bin[- ]office\\b|\\bonsite\\b|\\bin[- ]person\\b|\\bnot remote\\b|\\bno remote\\b|${wholeWords(WORKPLACE_WORDS.onSite)}`, 'iu');
const REMOTE = new RegExp(`\\bremote\\b|\\bwork from (?:home|anywhere)\\b|\\bwfh\\b|\\bdistributed\\b|\\btelecommut|${wholeWords(WORKPLACE_WORDS.remote)}`, 'iu');

/** `Workplace: Remote`, `Location: Berlin (hybrid)`, a summary part or a sentence stating where the work is done. */
function remote(doc: Doc): Located<boolean> | null {
  const sources = [...pairs(doc, WORKPLACE_LABELS), ...pairs(doc, LOCATION_LABELS)];
  const judge = (s: string, line: number): Located<boolean> | null => {
    const off = ON_SITE.exec(s);
    if (off) return derivedAt(false, line, off[0]);
    const on = REMOTE.exec(s);
    return on ? derivedAt(true, line, on[0]) : null;
  };
  for (const kv of sources) { const r = judge(kv.value, kv.line); if (r !== null) return r; }
  for (const line of doc.lines) {
    // A summary line's part (`Full time | On-site | ...`) or an aside (`evening shift (on-site)`) states it.
    for (const part of line.text.split(/\s+[|·•]\s+/)) if (WORKPLACE.test(trimPunct(part)) && part !== line.text) return derivedAt(/remote/i.test(part) && !/hybrid/i.test(part), line.index, trimPunct(part));
    const aside = /\((?:on[- ]?site|onsite|in[- ]office|office[- ]based|hybrid)\)/i.exec(line.text);
    if (aside) return derivedAt(false, line.index, aside[0]);
    const yes = /\b(?:fully|100%|full[- ]time)\s+remote\b|\bremote[- ]first\b|\bremote\s*\(|\bremote (?:role|position|job)\b|\bwork from anywhere\b/i.exec(line.text);
    if (yes) return derivedAt(true, line.index, yes[0]);
    const no = /\bhybrid\b|\bon[- ]?site (?:role|position|job)\b|^on[- ]?site\b|\b(?:role|position|job) is on[- ]?site\b|\bin[- ]office\s+\d|\bdays? (?:a|per) week in (?:the )?office\b/i.exec(line.text);
    if (no) return derivedAt(false, line.index, no[0]);
  }
  return null;
}

function stripWorkplace(s: string): string {
  // `Berlin, Germany – fully remote possible from anywhere in the EU`: a clause after a dash says how, not where.
  const clause = /^(.*?\S)\s+[-–—;]\s+\p{Ll}/u.exec(s);
  if (clause && !/\b(?:remote|hybrid|on[- ]?site|onsite)\b/i.test(clause[1]!)) s = clause[1]!;
  return trimPunct(clean(s.replace(/\((?:[^)]*\b(?:remote|hybrid|on[- ]?site|onsite|in[- ]office|office[- ]based)\b[^)]*)\)/gi, '').replace(/\b(?:remote|hybrid|on[- ]?site|onsite|in[- ]office)\b\s*(?:[-–—/|,]|or|and)?/gi, '').replace(/\s*[-–—/|,]\s*$/, '')));
}

const SEPARATOR = /\s+[|·•]\s+|\s+[-–—]\s+/;
const WORKPLACE = /^(?:remote|fully remote|hybrid|on[- ]?site|onsite|in[- ]office|office[- ]based)(?:\s*\([^)]*\))?$/i;

/** One to three capitalised words: what a company's part of a title line looks like. */
const NAME_PART = /^\p{Lu}[\p{L}\p{N}&'’.-]*(?:\s+\p{Lu}[\p{L}\p{N}&'’.-]*){0,2}$/u;
/** Words of a title's second half that are about the shift, level or kind of role, not a company. */
const NOT_NAME_WORDS = new Set(['shift', 'night', 'nights', 'day', 'days', 'weekend', 'weekends', 'evening', 'evenings', 'morning', 'senior', 'junior', 'lead', 'team', 'contract', 'temporary', 'temp', 'maternity', 'paternity', 'parental', 'cover', 'fixed', 'term', 'part', 'full', 'time', 'graduate', 'internship', 'intern', 'apprenticeship', 'freelance', 'locum', 'relief', 'bank', 'urgent', 'immediate', 'start', 'new', 'backend', 'frontend', 'remote', 'hybrid']);
interface Summary { title: string | null; company: string | null; location: string | null; remote: boolean | null; workplace?: string }

/**
 * A summary line of parts (`Warehouse Shift Lead | Lindqvist Logistics AB | Gothenburg, Sweden | Full-time`,
 * `The Olive Grove Bistro - Lisbon, Portugal`, `Northpeak Studio, Toronto, ON`): each part read by its shape -
 * a workplace word, an employment type, pay, a place (`City, Country`), an organisation.
 */
function summaryParts(text: string, withTitle: boolean, nextIsWorkplace = false): Summary | null {
  let parts = text.split(SEPARATOR).map((p) => trimPunct(clean(p))).filter(Boolean);
  if (parts.length < 2) {
    // `Company, City, Region`: the first comma part is the name when the rest reads as a place.
    const commas = text.split(/,\s+/);
    if (withTitle || commas.length < 2 || commas.length > 4 || !commas.slice(1).every((c) => /^[\p{Lu}][\p{L}.'’ -]{1,30}$/u.test(c.trim()))) return null;
    if (ORGANISATION_WORD.test(commas[1]!) && !/\s/.test(commas[1]!.trim())) return null; // `Acme, Inc.`
    parts = [commas[0]!, commas.slice(1).join(', ')];
  }
  const out: Summary = { title: null, company: null, location: null, remote: null };
  const rest: string[] = [];
  let known = 0;
  parts.forEach((p, i) => {
    if (i === 0 && withTitle) { out.title = p; return; }
    if (WORKPLACE.test(p)) { out.remote = /remote/i.test(p) && !/hybrid/i.test(p); out.workplace = p; known++; return; }
    if (TYPES.some(([re]) => re.test(p)) && p.split(' ').length <= 3) { known++; return; }
    if (/[$€£¥]|\d/.test(p)) { known++; return; }
    if (/,/.test(p) || ORGANISATION_WORD.test(p)) known++;
    rest.push(p);
  });
  // `Registered Nurse - Night Shift` is one title: a summary line shows parts of known shapes.
  // `Senior Backend Engineer - Lumen` above `Remote (US)`: under a title line, a workplace line makes the one part a
  // name, when it reads as one (not `Night Shift`, `Maternity Cover`).
  if (withTitle && known === 0 && !(nextIsWorkplace && rest.length === 1 && NAME_PART.test(rest[0]!) && !rest[0]!.split(/\s+/).some((w) => NOT_NAME_WORDS.has(w.toLowerCase())))) return null;
  for (const p of rest) {
    if (!out.location && /,/.test(p) && !ORGANISATION_WORD.test(p)) out.location = stripWorkplace(p) || null;
    else if (!out.company) out.company = p;
    else if (!out.location) out.location = stripWorkplace(p) || null;
  }
  return out;
}

const BANNER = /^(?:(.+?)\s+(?:is|are)\s+hiring!?|(?:we(?:'|’)re|we are|now)\s+hiring!?|join (?:our|the) team!?|(.+?)\s*[·|–—-]\s*(?:careers|jobs|job openings|open positions|vacancies|karriere|stellenangebote))$/i;

interface Header {
  /** `Job title: ...` */
  titlePair: Located<string> | null;
  /** The title line's parts (`Title | Company | Place`) and the line under it, read by shape. */
  summary: Summary | null;
  /** The lines the summary was read from. */
  summaryLines: number[];
  /** `KESTREL COLD CHAIN B.V.` above `Shift Supervisor – Frozen Warehouse`: the company's letterhead comes first. */
  letterhead: Located<string> | null;
  /** The title as the first line (or its first part, or the line under a letterhead) shows it. */
  titleLine: Located<string> | null;
  /** `Now hiring: Barista`: a pair on the first line naming the post. */
  hiringPair: Located<string> | null;
  /** A line near the top ending in a legal form (`Feldspat Mobility GmbH`). */
  legalLine: Located<string> | null;
  /** The line under the title when it is a bare name, not a label, sentence or place. */
  nameUnderTitle: Located<string> | null;
  /** `Northpeak Studio is hiring!`, `Acme · Careers`: the banner's name. */
  bannerName: Located<string> | null;
}

function readHeader(doc: Doc): Header {
  let nonEmpty = topLines(doc);
  // A banner (`Northpeak Studio is hiring!`) is not the title; it may name the company.
  const bannerLine = nonEmpty[0];
  const banner = nonEmpty[0] ? BANNER.exec(nonEmpty[0].text) : null;
  if (banner) nonEmpty = nonEmpty.slice(1);
  const isPairLine = (l: { index: number } | undefined) => !!l && doc.kvs.some((kv) => kv.line === l.index);
  const titleKv = pair(doc, TITLE_LABELS);
  const titlePair = titleKv?.value ?? null;
  const [line0, line1] = nonEmpty;
  const firstSummary = line0 && !titlePair && !isPairLine(line0) ? summaryParts(line0.text, true, !!line1 && WORKPLACE.test(line1.text)) : null;
  const secondSummary = line1 && !isPairLine(line1) && line1.text.length <= 80 && !/[.!?:]$/.test(line1.text) ? summaryParts(line1.text, false) : null;
  // The title line may name the company and the line below the place: read both.
  const summary: Summary | null = firstSummary || secondSummary ? {
    title: firstSummary?.title ?? null,
    company: firstSummary?.company ?? secondSummary?.company ?? null,
    location: firstSummary?.location ?? secondSummary?.location ?? null,
    remote: firstSummary?.remote ?? secondSummary?.remote ?? null,
  } : null;
  const letterheadFirst = !titlePair && !firstSummary && !!line0 && !!line1 && LEGAL_FORM_END.test(line0.text) && !LEGAL_FORM_END.test(line1.text)
    && !isPairLine(line0) && !isPairLine(line1) && line1.text.length <= 80 && !/[.!?:]$/.test(line1.text);
  const first = letterheadFirst ? line1!.text : firstSummary?.title ?? line0?.text ?? null;
  const firstIsPair = !letterheadFirst && !!first && isPairLine(line0);
  const hiringKv = firstIsPair ? doc.kvs.find((kv) => kv.line === line0!.index && /hiring|job|position|vacancy|opening/i.test(kv.label)) : undefined;
  const titleLine = first && !firstIsPair && first.length <= 90 ? first.replace(/^(?:job|position|vacancy|we(?:'|’)re hiring|now hiring|hiring)\s*[:\-–]\s*/i, '') : null;
  const titleLineAt = letterheadFirst ? line1!.index : line0?.index;
  const second = nonEmpty[1];
  const nameUnderTitle = second && !titlePair && !isPairLine(second) && second.text.length <= 60 && !WORKPLACE.test(second.text)
    && (!/[.:!?]$/.test(second.text) || LEGAL_FORM_END.test(second.text)) && !/\d{4}/.test(second.text) && !SEPARATOR.test(second.text) ? second : null;
  const legal = nonEmpty.slice(1, 4).find((l) => LEGAL_FORM_END.test(l.text) && !isPairLine(l));
  const bannerName = banner?.[1] ?? banner?.[2] ?? null;
  return {
    titlePair: titleKv && titlePair ? at(titlePair, titleKv.line) : null,
    summary,
    summaryLines: [line0?.index, line1?.index].filter((i): i is number => i !== undefined),
    letterhead: letterheadFirst ? at(line0!.text, line0!.index) : null,
    titleLine: titleLine && titleLineAt !== undefined ? at(titleLine, titleLineAt) : null,
    hiringPair: hiringKv?.value ? at(hiringKv.value, hiringKv.line) : null,
    legalLine: legal ? at(legal.text, legal.index) : null,
    nameUnderTitle: nameUnderTitle ? at(nameUnderTitle.text, nameUnderTitle.index) : null,
    bannerName: bannerName && bannerLine ? at(bannerName, bannerLine.index) : null,
  };
}

type ListKinds = Record<ListKind, Located<string>[]>;

/** The three lists by their headings: a named heading first, else one whose words say which list it is. */
function readLists(doc: Doc): ListKinds {
  const used = new Set<Section>();
  const list = (names: string[], kind: ListKind) => {
    const sec = sectionsFor(doc, names, 'is').find((s) => s.items.length) ?? sectionsFor(doc, names, 'has').find((s) => s.items.length)
      ?? doc.sections.find((s) => s.items.length && !used.has(s) && listKind(s.heading) === kind);
    if (sec) used.add(sec);
    return sec ? sec.items.map((i) => at(clean(i), sectionLines(sec))) : [];
  };
  // Benefits first: `What we offer` is read before the looser requirement words can claim it.
  const benefits = list(BENEFITS, 'benefits');
  const requirements = list(REQUIREMENTS, 'requirements');
  return { benefits, requirements, responsibilities: list(RESPONSIBILITIES, 'responsibilities') };
}

/**
 * `Ironbark Talent Partners is recruiting on behalf of Quokka Ledger Pty Ltd, ...`, `Our client, Halden Trading Ltd,
 * is hiring`: a recruiter's posting names the hiring company in this frame; the name must end in a legal form.
 */
const ON_BEHALF_OF = new RegExp(String.raw`\b(?:on\s+behalf\s+of|recruiting\s+for|hiring\s+for|our\s+client,?)\s+([A-Z][\p{L}\p{N}&'’.-]*(?:\s+(?:&\s+)?[\p{L}\p{N}&'’.-]+){0,5}?,?\s+${LEGAL_FORM_STRONG_SOURCE}\.?(?:\s+${LEGAL_FORM_STRONG_SOURCE}\.?)*)(?![\p{L}\p{N}])`, 'u');

interface C { doc: Doc; found: Partial<Job>; head: Header; lists: ListKinds; pay: Pay }

const company = (name: string, pick: (c: C) => Located<string> | null | undefined) => finder<C, string>(name, (c) => { const v = pick(c); return v ? mapLocated(v, dropParens(v.value)) : null; });

/** A summary part (company, place), read from the summary's lines. */
const summaryPart = (c: C, value: string | null | undefined) => (value ? at(value, c.head.summaryLines) : null);

/** A summary part that reads as an organisation, or any summary part when no line near the top ends in a legal form. */
const summaryCompany = company('summary line part', (c) =>
  c.head.summary?.company && (ORGANISATION_WORD.test(c.head.summary.company) || !c.head.legalLine) ? summaryPart(c, c.head.summary.company) : null);

/** `Posted: 3 March 2026`, or `posted on 3 March 2026` in a sentence. */
const postedLabel = finder<C, string>('labelled posting date', ({ doc }) => {
  const kv = pairs(doc, POSTED_LABELS).find((k) => parseDate(k.value, doc.dateOptions));
  return kv ? at(parseDate(kv.value, doc.dateOptions)!, kv.line) : null;
});
const postedPhrase = finder<C, string>('posted in a sentence', ({ doc }) => {
  const m = /\b(?:posted|published|listed)(?:\s+on)?\s*[:\-]?\s*([^\n]{4,40})/i.exec(doc.text);
  const d = m ? findDates(m[1]!, doc.dateOptions)[0] : undefined;
  if (!m || !d) return null;
  const from = m.index + m[0].length - m[1]!.length;
  return inText(d.iso, from + d.index, from + d.end);
});

export const JOB_POSTING_FIELDS: FieldTable<C, Job> = {
  title: field('title', [
    finder('labelled title', (c) => c.head.titlePair),
    finder('hiring pair on the first line', (c) => c.head.hiringPair),
    finder('title line', (c) => c.head.titleLine),
    learned('job-posting:/title'),
  ]),
  company: field('name', [
    company('labelled company', ({ doc }) => { const kv = pair(doc, COMPANY_LABELS); return kv ? at(kv.value, kv.line) : null; }),
    company('recruiter\'s client', ({ doc }) => { const m = ON_BEHALF_OF.exec(doc.text); return m ? inText(m[1]!, m.index + m[0].lastIndexOf(m[1]!), m.index + m[0].lastIndexOf(m[1]!) + m[1]!.length) : null; }),
    company('letterhead above the title', (c) => c.head.letterhead),
    summaryCompany,
    company('legal-form line near the top', (c) => c.head.legalLine),
    company('bare name under the title', (c) => (c.head.summary?.company ? null : c.head.nameUnderTitle)),
    company('hiring banner', (c) => c.head.bannerName),
    learned('job-posting:/company'),
  ]),
  location: field('place', [
    finder('labelled location', ({ doc }) => { const kv = pair(doc, LOCATION_LABELS); return kv ? at(stripWorkplace(kv.value), kv.line) : null; }),
    finder('summary line place', (c) => summaryPart(c, c.head.summary?.location)),
    learned('job-posting:/location'),
  ]),
  employmentType: field('choice', [labelledType, typeInTitle, typeNearTop]),
  salaryRange: group<C, Job['salaryRange']>({
    min: field('money', [finder('pay line', (c) => payAt(c, c.pay.min))]),
    max: field('money', [finder('pay line', (c) => payAt(c, c.pay.max))]),
    currency: field('currency', [finder('pay line', (c) => payAt(c, c.pay.currency))]),
    period: field('choice', [finder('pay line', (c) => (c.pay.period && c.pay.line !== null ? derivedAt(c.pay.period, c.pay.line) : null))]),
  }),
  requirements: list('statement', [finder<C, string[]>('requirements list', (c) => c.lists.requirements)]),
  responsibilities: list('statement', [finder<C, string[]>('responsibilities list', (c) => c.lists.responsibilities)]),
  benefits: list('statement', [finder<C, string[]>('benefits list', (c) => c.lists.benefits)]),
  remote: field('flag', [finder('workplace statement', ({ doc }) => remote(doc)), finder('summary line workplace', (c) => (c.head.summary?.remote != null && c.head.summary.workplace ? derivedAt(c.head.summary.remote, c.head.summaryLines, c.head.summary.workplace) : null))]),
  postedDate: field('date', [postedLabel, postedPhrase, learned('job-posting:/postedDate')]),
};

/** A pay figure or currency, read from the pay line (a currency from its symbol when no code is written there). */
function payAt<T>(c: C, value: T | null): Located<T> | null {
  if (value === null || c.pay.line === null) return null;
  return at(value, c.pay.line);
}

export function extractJobPosting(doc: Doc, rec: Recorder = { route: 'job-posting' }): Job {
  return runTable(JOB_POSTING_FIELDS, { doc, found: {}, head: readHeader(doc), lists: readLists(doc), pay: salary(doc) }, rec);
}
