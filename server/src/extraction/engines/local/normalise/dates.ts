// Calendar dates as YYYY-MM-DD from the ways documents write them.

export interface DateOptions {
  /**
   * Read an ambiguous `03/04/2026` as day-first (true) or month-first (false), from the document's own evidence;
   * undefined when it has none, and then such a date is not read at all (a wrong date is worse than none).
   */
  dayFirst?: boolean | undefined;
  /** The year for dates written without one (the document's own date), or undefined to refuse them. */
  year?: number | null;
}

export interface FoundDate {
  iso: string;
  index: number;
  end: number;
  /** True when the written form carried no year and one was borrowed. */
  yearless: boolean;
}

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'janvier', 'enero', 'gennaio', 'jänner']],
  [2, ['february', 'feb', 'februar', 'février', 'fevrier', 'febrero', 'febbraio']],
  [3, ['march', 'mar', 'märz', 'maerz', 'mars', 'marzo']],
  [4, ['april', 'apr', 'avril', 'abril', 'aprile']],
  [5, ['may', 'mai', 'mayo', 'maggio']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno']],
  [7, ['july', 'jul', 'juli', 'juillet', 'julio', 'luglio']],
  [8, ['august', 'aug', 'août', 'aout', 'agosto']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'settembre']],
  [10, ['october', 'oct', 'oktober', 'octobre', 'octubre', 'ottobre']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'dezember', 'décembre', 'decembre', 'diciembre', 'dicembre']],
];
for (const [n, names] of MONTH_NAMES) for (const name of names) MONTHS[name] = n;
const MONTH_RE = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');

/** Ordinal day words: `first` .. `thirty-first`. */
const ORDINALS: Record<string, number> = {};
const UNITS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const TEENS = ['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth'];
UNITS.forEach((w, i) => { ORDINALS[w] = i + 1; ORDINALS[`twenty-${w}`] = 21 + i; ORDINALS[`twenty ${w}`] = 21 + i; ORDINALS[`twenty${w}`] = 21 + i; });
TEENS.forEach((w, i) => { ORDINALS[w] = 10 + i; });
ORDINALS.twentieth = 20; ORDINALS.thirtieth = 30; ORDINALS['thirty-first'] = 31; ORDINALS['thirty first'] = 31;
const ORDINAL_RE = Object.keys(ORDINALS).sort((a, b) => b.length - a.length).join('|');
const ordinal = (w: string) => ORDINALS[w.toLowerCase().replace(/\s+/g, ' ')]!;

const pad = (n: number) => String(n).padStart(2, '0');

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2200) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d > days ? null : `${y}-${pad(m)}-${pad(d)}`;
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

// Order matters: the most explicit forms first, so `2026-03-01` is never read as a numeric d-m-y.
const PATTERNS: { re: RegExp; read: (m: RegExpExecArray, o: DateOptions) => [number | null, number, number] | null }[] = [
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/giu, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  {
    // `1-8-19 Ginza, Chuo-ku` is a street address (block numbers), not 1 August 2019.
    re: /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2}(?!\s+\p{Lu}\p{L}+,))\b(?![.:/-]\d)/giu,
    read: (m, o) => {
      const a = Number(m[1]), b = Number(m[3]);
      // A dotted date is European; otherwise a part above 12 decides, then the document's habit.
      const dayFirst = a > 12 ? true : b > 12 ? false : m[2] === '.' ? true : a === b ? true : o.dayFirst;
      if (dayFirst === undefined) return null;
      return dayFirst ? [fullYear(m[4]!), b, a] : [fullYear(m[4]!), a, b];
    },
  },
  {
    // `the third of March 2026`, `first day of June, 2026`
    re: new RegExp(`\\b(${ORDINAL_RE})\\s+(?:day\\s+)?of\\s+(${MONTH_RE})\\.?(?:,?\\s+(\\d{4})\\b)?`, 'giu'),
    read: (m) => [m[3] ? Number(m[3]) : null, MONTHS[m[2]!.toLowerCase()]!, ordinal(m[1]!)] as [number | null, number, number],
  },
  {
    // `March the third, 2026`
    re: new RegExp(`\\b(${MONTH_RE})\\.?\\s+(?:the\\s+)?(${ORDINAL_RE})\\b(?:,?\\s+(\\d{4})\\b)?`, 'giu'),
    read: (m) => [m[3] ? Number(m[3]) : null, MONTHS[m[1]!.toLowerCase()]!, ordinal(m[2]!)] as [number | null, number, number],
  },
  {
    re: new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s*(\\d{4})\\b)?`, 'giu'),
    read: (m) => [m[3] ? Number(m[3]) : NaN, MONTHS[m[1]!.toLowerCase()]!, Number(m[2])].map((x, i) => (i === 0 && Number.isNaN(x) ? null : x)) as [number | null, number, number],
  },
  {
    // `14MAR26`, `02FEB2026`: airline and banking dates, day, month and year run together in capitals.
    re: /\b(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2}|\d{4})\b/gu,
    read: (m) => [fullYear(m[3]!), MONTHS[m[2]!.toLowerCase()]!, Number(m[1])],
  },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?(?:\\s+of)?[\\s-]+(${MONTH_RE})\\.?(?:[\\s,-]+(\\d{4})\\b)?`, 'giu'),
    read: (m) => [m[3] ? Number(m[3]) : NaN, MONTHS[m[2]!.toLowerCase()]!, Number(m[1])].map((x, i) => (i === 0 && Number.isNaN(x) ? null : x)) as [number | null, number, number],
  },
];

/** Every date written in `s`, in order of position; overlapping readings keep the earliest, most explicit one. */
/** Every written date holds a figure or an ordinal word: text with neither is skipped without running the patterns. */
const MAY_HOLD_DATE = /\d|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|teenth|tieth/i;

export function findDates(s: string, o: DateOptions = {}): FoundDate[] {
  const found: FoundDate[] = [];
  if (!MAY_HOLD_DATE.test(s)) return found;
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      const start = m.index, end = m.index + m[0].length;
      if (found.some((f) => start < f.end && end > f.index)) continue;
      const parts = read(m, o);
      if (!parts) continue;
      let [y, mo, d] = parts as [number | null, number, number];
      // `1200 Harbor` style numbers are not days; a year-less date needs the document's year.
      const yearless = y === null;
      if (yearless) {
        if (!o.year) continue;
        y = o.year;
      }
      const out = iso(y as number, mo, d);
      if (out) found.push({ iso: out, index: start, end, yearless });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The first date written in `s`, or null. */
export function parseDate(s: string, o: DateOptions = {}): string | null {
  return findDates(s, o)[0]?.iso ?? null;
}

/**
 * The date a phrase introduces (`effective as of 1 April 2026`, `no later than the fourth of June 2026`): only the
 * phrase's own object counts, so `begins on the Effective Date and ends on 31 March` names no date.
 */
export function dateAfterPhrase(text: string, phrase: RegExp, o: DateOptions = {}): string | null {
  return dateAfterPhraseAt(text, phrase, o)?.iso ?? null;
}

/** `dateAfterPhrase`, with where the date stands in `text`. */
export function dateAfterPhraseAt(text: string, phrase: RegExp, o: DateOptions = {}): FoundDate | null {
  const m = phrase.exec(text);
  if (!m) return null;
  const from = m.index + m[0].length;
  const object = text.slice(from, from + 40).split(/\s(?:and|or|but|until|through|to|ends?|expires?)\s|[;(]/)[0]!;
  const d = findDates(object, o)[0];
  return d ? { ...d, index: from + d.index, end: from + d.end } : null;
}

/**
 * Whether a document writes ambiguous numeric dates day-first: its own unambiguous dates, a dd/mm hint, or its
 * currency (the dollar months first, others days first); undefined when nothing says.
 */
export function detectDayFirst(text: string, currency: string | null): boolean | undefined {
  if (/\bdd[/.-]mm\b/i.test(text)) return true;
  if (/\bmm[/.-]dd\b/i.test(text)) return false;
  const re = /\b(\d{1,2})[/-](\d{1,2})[/-](\d{2,4})\b/g;
  let votes = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (Number(m[1]) > 12) votes++;
    else if (Number(m[2]) > 12) votes--;
  }
  if (votes !== 0) return votes > 0;
  return currency === null ? undefined : currency !== 'USD';
}

/** Adds whole days to an ISO date. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
