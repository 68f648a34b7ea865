// Job posting: title, company, place, employment type, pay range, the three headed lists, remote, date.
import type { FixedData } from '../engine-types.js';
import type { Doc } from '../segment/document.js';
import { pair, pairs, sectionsFor } from '../segment/lookup.js';
import { clean, dropParens, trimPunct } from '../segment/text.js';
import { parseDate } from '../normalise/dates.js';
import { currencyIn } from '../normalise/currency.js';
import { findAmounts } from '../normalise/money.js';

type Job = FixedData['job-posting'];

const TITLE_LABELS = ['job title', 'title', 'position', 'role', 'job', 'vacancy', 'position title', 'post'];
const COMPANY_LABELS = ['company', 'employer', 'organisation', 'organization', 'hiring company', 'company name', 'firm', 'client'];
const LOCATION_LABELS = ['location', 'based in', 'job location', 'office', 'where', 'city', 'place of work', 'work location', 'location s'];
const TYPE_LABELS = ['type', 'employment type', 'job type', 'hours', 'contract', 'contract type', 'employment', 'schedule', 'position type', 'work type', 'engagement'];
const PAY_LABELS = ['salary', 'pay', 'compensation', 'rate', 'wage', 'salary range', 'pay range', 'remuneration', 'hourly rate', 'base salary', 'pay rate', 'day rate', 'package'];
const POSTED_LABELS = ['posted', 'date posted', 'posted on', 'published', 'posting date', 'date', 'listed', 'date published', 'posted date'];
const WORKPLACE_LABELS = ['workplace', 'remote', 'work model', 'work arrangement', 'workplace type', 'work mode', 'location type', 'arrangement'];

const REQUIREMENTS = ['requirements', 'qualifications', 'what we re looking for', 'what we are looking for', 'essential', 'you have', 'must have', 'must haves', 'skills', 'about you', 'who you are', 'what you bring', 'what you ll bring', 'what you will bring', 'required', 'requirements and qualifications', 'experience', 'your profile', 'minimum qualifications', 'you ll need', 'you will need', 'we need', 'skills and experience', 'ideal candidate', 'key requirements', 'candidate profile'];
const RESPONSIBILITIES = ['responsibilities', 'duties', 'what you ll do', 'what you will do', 'the role', 'your role', 'key tasks', 'day to day', 'in this role', 'in this role you will', 'your responsibilities', 'key responsibilities', 'main duties', 'tasks', 'you will', 'role', 'what the job involves', 'job duties', 'your day', 'the job'];
const BENEFITS = ['benefits', 'perks', 'we offer', 'what we offer', 'why join', 'why join us', 'perks and benefits', 'benefits and perks', 'what s in it for you', 'what you get', 'our offer', 'we provide', 'rewards', 'you ll get', 'you will get', 'why work with us'];

const TYPES: [RegExp, Job['employmentType']][] = [
  [/\bintern(?:ship)?\b|\bwerkstudent|\bpraktikum/i, 'internship'],
  [/\bpart[- ]?time\b|\bteilzeit\b/i, 'part_time'],
  [/\btemporary\b|\btemp\b|\bfixed[- ]term\b|\bseasonal\b|\bcover\b|\bbefristet/i, 'temporary'],
  [/\bcontract(?:or)?\b|\bfreelance\b|\bb2b\b|\bconsultan/i, 'contract'],
  [/\bfull[- ]?time\b|\bpermanent\b|\bvollzeit\b|\bfte\b/i, 'full_time'],
];

function employmentType(doc: Doc, title: string | null): Job['employmentType'] {
  for (const kv of pairs(doc, TYPE_LABELS)) for (const [re, t] of TYPES) if (re.test(kv.value)) return t;
  if (title) for (const [re, t] of TYPES) if (re.test(title)) return t;
  const head = doc.lines.slice(0, 15).map((l) => l.text).join('\n');
  for (const [re, t] of TYPES) if (re.test(head) && t !== 'contract') return t;
  return null;
}

const PERIODS: [RegExp, NonNullable<Job['salaryRange']['period']>][] = [
  [/\b(?:per|an|a|\/)\s*(?:hour|hr)\b|\bhourly\b|\bph\b|\/h\b|\bstunde/i, 'hour'],
  [/\b(?:per|a|\/)\s*day\b|\bdaily\b|\bday rate\b|\bper diem\b/i, 'day'],
  [/\b(?:per|a|\/)\s*week\b|\bweekly\b/i, 'week'],
  [/\b(?:per|a|\/)\s*month\b|\bmonthly\b|\bpcm\b|\bmonat/i, 'month'],
  [/\b(?:per|a|\/)\s*(?:year|annum|yr)\b|\bannual(?:ly)?\b|\bp\.?a\.?(?=\W|$)|\byearly\b|\bjahr|\bbrutto\b/i, 'year'],
];

function salary(doc: Doc): Job['salaryRange'] {
  const empty = { min: null, max: null, currency: null, period: null };
  const candidates = [...pairs(doc, PAY_LABELS).map((kv) => kv.value), ...doc.lines.map((l) => l.text).filter((t) => /[$€£]|\b(?:USD|EUR|GBP|CAD|AUD)\b/.test(t) && /\b(?:salary|pay|per|hour|year|annum|compensation|rate|monthly|hourly|weekly|daily|annually|month|week|day|stipend|wage)\b/i.test(t))];
  for (const c of candidates) {
    const found = findAmounts(c, doc.numberStyle).filter((a) => a.value > 0 && !/^\d+(?:[.,]\d+)?\s*%/.test(c.slice(a.index)) && !/^\d+\+?\s*(?:years?|hours?|days?|months?|weeks?)\b/i.test(c.slice(a.index)));
    if (found.length === 0) continue;
    // A range: two figures joined by a dash or `to` (`£11.50 - £12.50`, `A$850 – A$950`, `45k to 55k`).
    const a = found[0]!, b = found[1];
    const isRange = !!b && /^\s*(?:-|–|—|to|bis|and)\s*$/i.test(c.slice(a.end, b.index));
    const amounts = isRange ? [a, b!] : [a];
    const currency = amounts.find((x) => x.currency)?.currency ?? currencyIn(c) ?? null;
    if (!currency && !isRange) continue;
    const values = amounts.map((x) => x.value);
    const rest = c.slice(amounts[amounts.length - 1]!.end);
    const period = PERIODS.find(([re]) => re.test(rest))?.[1] ?? PERIODS.find(([re]) => re.test(c))?.[1] ?? null;
    return { min: Math.min(...values), max: Math.max(...values), currency: currency ?? doc.currency, period };
  }
  return empty;
}

function remote(doc: Doc): boolean | null {
  const sources = [...pairs(doc, WORKPLACE_LABELS).map((kv) => kv.value), ...pairs(doc, LOCATION_LABELS).map((kv) => kv.value)];
  const judge = (s: string): boolean | null => {
    if (/\bhybrid\b|\bon[- ]?site\b|\bin[- ]office\b|\bonsite\b|\bin[- ]person\b|\bnot remote\b|\bno remote\b/i.test(s)) return false;
    if (/\bremote\b|\bwork from (?:home|anywhere)\b|\bwfh\b|\bdistributed\b|\btelecommut/i.test(s)) return true;
    return null;
  };
  for (const s of sources) { const r = judge(s); if (r !== null) return r; }
  for (const line of doc.lines) {
    if (/\b(?:fully|100%|full[- ]time)\s+remote\b|\bremote[- ]first\b|\bremote\s*\(|\bremote (?:role|position|job)\b|\bwork from anywhere\b/i.test(line.text)) return true;
    if (/\bhybrid\b|\bon[- ]?site (?:role|position|job)\b|^on[- ]?site\b|\b(?:role|position|job) is on[- ]?site\b|\bin[- ]office\s+\d|\bdays? (?:a|per) week in (?:the )?office\b/i.test(line.text)) return false;
  }
  return null;
}

function stripWorkplace(s: string): string {
  return trimPunct(clean(s.replace(/\((?:[^)]*\b(?:remote|hybrid|on[- ]?site|onsite|in[- ]office|office[- ]based)\b[^)]*)\)/gi, '').replace(/\b(?:remote|hybrid|on[- ]?site|onsite|in[- ]office)\b\s*(?:[-–—/|,]|or|and)?/gi, '').replace(/\s*[-–—/|,]\s*$/, '')));
}

export function extractJobPosting(doc: Doc): Job {
  const nonEmpty = doc.lines.filter((l) => l.text);
  const titlePair = pair(doc, TITLE_LABELS);
  const first = nonEmpty[0]?.text ?? null;
  const firstIsPair = !!first && doc.kvs.some((kv) => kv.line === nonEmpty[0]!.index);
  const hiringLine = firstIsPair ? doc.kvs.find((kv) => kv.line === nonEmpty[0]!.index && /hiring|job|position|vacancy|opening/i.test(kv.label)) : undefined;
  const title = titlePair ? titlePair.value : hiringLine ? hiringLine.value : first && !firstIsPair && first.length <= 90 ? first.replace(/^(?:job|position|vacancy|we(?:'|’)re hiring|now hiring|hiring)\s*[:\-–]\s*/i, '') : null;

  let company = pair(doc, COMPANY_LABELS)?.value ?? null;
  if (!company) {
    // The line under the title when it is a bare name, not a label or a sentence.
    const second = nonEmpty[1];
    if (second && !titlePair && !doc.kvs.some((kv) => kv.line === second.index) && second.text.length <= 60 && !/[.:!?]$/.test(second.text) && !/\d{4}/.test(second.text)) company = second.text;
    else {
      const m = /\b(?:at|join|About)\s+([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,4})/.exec(doc.text);
      if (m) company = trimPunct(m[1]!);
    }
  }
  const locationPair = pair(doc, LOCATION_LABELS);
  const location = locationPair ? stripWorkplace(locationPair.value) || null : null;

  const postedPair = pairs(doc, POSTED_LABELS).find((kv) => parseDate(kv.value, doc.dateOptions));
  let postedDate = postedPair ? parseDate(postedPair.value, doc.dateOptions) : null;
  if (!postedDate) {
    const m = /\b(?:posted|published|listed)(?:\s+on)?\s*[:\-]?\s*([^\n]{4,40})/i.exec(doc.text);
    if (m) postedDate = parseDate(m[1]!, doc.dateOptions);
  }
  const list = (names: string[]) => {
    const sec = sectionsFor(doc, names, 'is').find((s) => s.items.length) ?? sectionsFor(doc, names, 'has').find((s) => s.items.length);
    return sec ? sec.items.map((i) => clean(i)) : [];
  };
  return {
    title: title ? clean(title) : null,
    company: company ? dropParens(company) : null,
    location,
    employmentType: employmentType(doc, title),
    salaryRange: salary(doc),
    requirements: list(REQUIREMENTS),
    responsibilities: list(RESPONSIBILITIES),
    benefits: list(BENEFITS),
    remote: remote(doc),
    postedDate,
  };
}
