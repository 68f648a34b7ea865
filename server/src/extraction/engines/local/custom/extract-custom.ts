// Best-effort extraction for a caller's JSON Schema: each property found by label, heading or nearby words,
// then coerced to the property's JSON type. Every property is present; null when not found.
import type { JsonSchema } from '../engine-types.js';
import { topLines, type Doc, type Section } from '../segment/document.js';
import { BULLET_RE, clean, dropParens, stripBullet, trimPunct } from '../segment/text.js';
import { cellsOf, itemFromRow, type Cell } from './row-items.js';
import { findDates, parseDate } from '../normalise/dates.js';
import { parseTime } from '../normalise/times.js';
import { currencyIn } from '../normalise/currency.js';
import { findAmounts } from '../normalise/money.js';
import { kindOf, resolve, stringFlavour } from './schema-node.js';
import { labelScore, namesByOwnWord, namesProperty, stem, vocabulary, wordsMatch, type Vocabulary } from './property-words.js';
import { HONORIFIC_SOURCE } from '../lexicon.js';
import { field, finder, list, runField, type Finder, type Recorder } from '../fields/finder.js';
import type { FieldKind } from '../fields/bounds.js';
import { at, derivedAt, inText, sectionLines, type Located } from '../fields/located.js';
import { documentCurrency } from '../routes/currency-of.js';
import { escapeStep } from '../../../evidence/pointers.js';
import { LEARNED } from '../learned/learned-finder.js';
import { rulesFirst } from '../fields/claims.js';
import { rankedValue } from '../learned/ranker.js';
import { customFieldWords, isIdentifierProperty } from '../learned/custom-fields.js';

/** The part of the document a property is looked for in: the whole document, or a nested object's block. */
interface Scope {
  doc: Doc;
  /** Candidate labelled values: (label, value, continuation lines, line index); `mail` for an e-mail envelope's. */
  pairs: { label: string; value: string; more: string[]; line: number; mail?: boolean }[];
  /** The scope's lines, for nearby-word and pattern searches. */
  lines: string[];
  /** The document line each of `lines` was read from. */
  at: number[];
  root: boolean;
  /** The properties of the object being filled, so a label goes to the property it names best. */
  siblings?: { name: string; v: Vocabulary; sort: string }[];
  /**
   * A nested object whose own block was not found is read from the whole document: then a label must hold a word of
   * the member's or the object's own name (`Hotel name` for hotel.name, never `Guest name`).
   */
  within?: Vocabulary;
}

const PHONE_RE = /(?:\+|\b)\(?\d[\d\s().-]{6,}\d\b/;
const EMAIL_RE = /[\w.+-]+@[\w-]+\.[\w.-]+/;
const MIN_SCORE = 0.5;

function docScope(doc: Doc): Scope {
  const pairs: Scope['pairs'] = doc.kvs.map((kv) => ({ label: kv.label, value: kv.value, more: kv.continuation, line: kv.line }));
  // An e-mail envelope's headers, for a property that asks for the mail's own sender, subject or date.
  for (const kv of doc.mail) pairs.push({ label: kv.label, value: kv.value, more: kv.continuation, line: kv.line, mail: true });
  // `19:00 Talk: Title` - a label after a leading time or number.
  for (const line of doc.lines) {
    const m = /^\S*\d\S*\s+([\p{L}][\p{L} ]{1,30}):\s+(\S.*)$/u.exec(line.text);
    if (m) pairs.push({ label: m[1]!, value: clean(m[2]!), more: [], line: line.index });
  }
  return { doc, pairs, lines: doc.lines.map((l) => l.text), at: doc.lines.map((l) => l.index), root: true };
}

function bestPair(scope: Scope, v: Vocabulary, accept: (value: string) => boolean) {
  let best: Scope['pairs'][number] | null = null, bestScore = MIN_SCORE;
  for (const p of scope.pairs) {
    if (p.mail && !v.nameStems.some((n) => MAIL_STEMS.has(n))) continue;
    const s = labelScore(p.label, v);
    if (s < bestScore) continue;
    if (scope.within && !namesByOwnWord(p.label, v) && !namesByOwnWord(p.label, scope.within)) continue;
    // `Pet: Biscuit` names petName better than a clinician described as `Veterinarian seeing the pet`; a bare `Date`
    // names only a kind, so among certificateDate and policyEffectiveDate it goes to the one it fits best, not both.
    const sort = scope.siblings?.find((o) => o.v === v)?.sort;
    const rivals = scope.siblings?.filter((o) => o.v !== v && o.sort === sort && !namesByOwnWord(p.label, o.v) && labelScore(p.label, o.v) >= MIN_SCORE) ?? [];
    const named = namesProperty(p.label, v, MIN_SCORE) && (namesByOwnWord(p.label, v) || rivals.length === 0);
    if (!named && scope.siblings?.some((o) => o.v !== v && labelScore(p.label, o.v) > s)) continue;
    if (s >= bestScore && accept([p.value, ...p.more].join(' ')) && (s > bestScore || !best)) { best = p; bestScore = s; }
  }
  return best;
}

/** Words of a property that asks for a mail's own header (`senderEmail`, `emailSubject`, `sentDate`). */
const MAIL_STEMS = new Set(['email', 'mail', 'sender', 'from', 'subject', 'sent', 'recipient', 'cc', 'addressee'].map(stem));

const YES = /^(?:yes|y|true|allowed|permitted|included|available|ok|welcome|accepted|provided|free)\b/i;
const NO = /^(?:no|n|false|not\b|none|prohibited|forbidden|excluded|unavailable|un\w+)\b/i;

function toBoolean(value: string): boolean | null {
  const v = value.trim();
  if (NO.test(v) || /\bnot\s+(?:allowed|permitted|included|available)\b/i.test(v)) return false;
  if (YES.test(v)) return true;
  return null;
}

const MONEY_PROPERTY = /price|rate|fee|cost|amount|total|deposit|charge|salary|balance|spend|premium|rent|tip|tax|pay/i;
const isMoney = (value: string, scope: Scope) => findAmounts(withoutDates(value, scope), scope.doc.reading).some((a) => a.currency !== null || a.decimals);

/** The text without its dates, so their figures are not read as numbers. */
function withoutDates(value: string, scope: Scope): string {
  let rest = value;
  for (const d of findDates(value, scope.doc.dateOptions).reverse()) rest = `${rest.slice(0, d.index)} ${rest.slice(d.end)}`;
  return rest;
}

function toNumber(value: string, scope: Scope, integer: boolean): number | null {
  // The figures of a date are not a number (`Pay Period: 01/02/2026 to 28/02/2026` holds no amount).
  const a = findAmounts(withoutDates(value, scope), scope.doc.reading)[0];
  if (!a) return null;
  return integer ? (Number.isInteger(a.value) ? a.value : null) : a.value;
}

/** Words of a property name that ask for the end of a range (`endDate`, `validUntil`, `check_out`, `dateTo`). */
const END_WORDS = new Set(['end', 'ends', 'ending', 'until', 'till', 'finish', 'last', 'out', 'departure', 'expiry', 'expiration', 'expires', 'through', 'thru', 'to']);
const asksForRangeEnd = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).some((w) => END_WORDS.has(w));

/** Properties naming a person the document is addressed to or about. */
const PERSON = /participant|customer|recipient|guest|attendee|student|applicant|patient|member|client|person|addressee|candidate|tenant|passenger|holder|practitioner|doctor|physician|therapist/i;
const TITLES = String.raw`${HONORIFIC_SOURCE}\.?\s+`;
const HONORIFIC = new RegExp(`^(?:${TITLES})+`);
const SALUTATION = new RegExp(String.raw`^(?:Dear|Hello|Hi)\s+(?:${TITLES})?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,3})\s*[,:!]?\s*$`, 'mu');

/**
 * The date in the first line that uses the property's own words (at least two of them, or its one word): the date
 * after them, or for an end property (`until`) the range's last.
 */
function dateInSentence(name: string, v: Vocabulary, scope: Scope): Located<string> | null {
  const need = Math.min(2, v.nameStems.length);
  if (need === 0) return null;
  for (const line of scope.doc.lines) {
    const words = line.text.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean).map(stem);
    const hits = v.nameStems.filter((n) => words.some((w) => wordsMatch(w, new Set([n])))).length;
    if (hits < need) continue;
    const dates = findDates(line.text, scope.doc.dateOptions);
    if (dates.length) { const d = asksForRangeEnd(name) && dates.length > 1 ? dates[dates.length - 1]! : dates[0]!; return at(d.iso, line.index, line.text.slice(d.index, d.end)); }
  }
  return null;
}

/** Whether a value holds nothing but dates, weekdays and the words joining them. */
function onlyDates(value: string, scope: Scope): boolean {
  if (findDates(value, scope.doc.dateOptions).length === 0) return false;
  return !/\p{L}{2,}/u.test(withoutDates(value, scope).replace(/\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b|\b(?:to|until|till|through|from|and|bis)\b/gi, ''));
}

function toString(name: string, node: JsonSchema, value: string, scope: Scope): string | null {
  const flavour = stringFlavour(name, node);
  if (flavour === 'date') {
    // `9 May 2026 to 13 June 2026`: an end, until or check-out property takes the range's last date.
    const dates = findDates(value, scope.doc.dateOptions);
    if (dates.length >= 2 && asksForRangeEnd(name)) return dates[dates.length - 1]!.iso;
    return parseDate(value, scope.doc.dateOptions);
  }
  if (flavour === 'time') return parseTime(value);
  if (flavour === 'currency') return currencyIn(value) ?? null;
  if (Array.isArray(node.enum)) {
    const options = node.enum.filter((e): e is string => typeof e === 'string');
    return options.find((o) => clean(value).toLowerCase() === o.toLowerCase()) ?? options.find((o) => new RegExp(`\\b${o.replace(/[_-]/g, '[ _-]?')}\\b`, 'i').test(value)) ?? null;
  }
  // A name is the name alone: `Biscuit (Labrador, 4 years)` -> `Biscuit`, `Dr Grace Liu (Physiotherapist)` -> `Dr Grace
  // Liu`; a person's name property without `Ms` or `Dr.`.
  const named = /(?:name|Name)$/.test(name) || PERSON.test(name) ? dropParens(value) || value : value;
  let v = trimPunct(clean(PERSON.test(name) && /name/i.test(name) ? named.replace(HONORIFIC, '') : named));
  // `Dear Oluwaseun,` gives a first name; the document's `To: Oluwaseun Adeyemi` gives the whole of it.
  if (PERSON.test(name) && /^\p{Lu}[\p{L}'’-]+$/u.test(v)) {
    const whole = new RegExp(String.raw`(?<![\p{L}])${v}((?:[ \t]+\p{Lu}[\p{L}'’-]+){1,2})(?![\p{L}])`, 'u').exec(scope.doc.text);
    if (whole) v += whole[1]!.replace(/[ \t]+/g, ' ');
  }
  // A name or title is words: a value that is only dates (`Course dates: 9 May to 13 June`) names nothing.
  if (/name|title/i.test(name) && onlyDates(v, scope)) return null;
  return v || null;
}

/** A figure as a token of a line (`3.62`, `(6)`, `€1,250`). */
const FIGURE_TOKEN = /^\(?[$€£]?\d[\d.,]*\)?$/;

/**
 * A number written next to one of the property's words (`max 120 attendees`, `2 bedrooms`, `CGPA 3.62`). A word
 * ending in a colon labels the figure after it, never the one before (`Credits earned: 44 CGPA: 3.62`), a label before
 * its figure wins over a word after one (`Total credits 144 CGPA 3.62`), and a clause's number (`2. Contract Sum`) is no value.
 */
function numberNear(scope: Scope, v: Vocabulary, integer: boolean): Located<number> | null {
  const vocab = new Set([...v.nameStems, ...v.strong, ...v.weak]);
  const own = new Set(v.nameStems);
  const word = (t: string) => stem(t.replace(/[^\p{L}]/gu, ''));
  for (const [k, line] of scope.lines.entries()) {
    const here = scope.at[k]!;
    const tokens = line.split(/\s+/);
    let after: Located<number> | null = null;
    for (let i = 0; i < tokens.length; i++) {
      if (!FIGURE_TOKEN.test(tokens[i]!)) continue;
      if (i === 0 && /^\d{1,2}[.)]$/.test(tokens[i]!) && tokens.length > 1) continue;
      // The words before the figure back to the previous figure, and after it up to a label of the next one.
      const left: string[] = [];
      for (const j of [i - 1, i - 2]) { const t = tokens[j]; if (!t || FIGURE_TOKEN.test(t)) break; left.push(t); }
      const right: string[] = [];
      for (const j of [i + 1, i + 2]) { const t = tokens[j]; if (!t || FIGURE_TOKEN.test(t) || /[:：]$/.test(t)) break; right.push(t); }
      const near = [...left, ...right].map(word);
      const hits = near.filter((t) => t && wordsMatch(t, vocab)).length;
      // Description words alone (`reduced`, `amount`) sit beside many figures: one neighbour must be the name's own word.
      const isOwn = (t: string) => !!t && (wordsMatch(t, own) || wordsMatch(t, v.strong));
      const named = near.some(isOwn);
      // `CGPA: 3.62`, `CGPA 3.62`: the property's one-word name itself, or a word of it labelling the figure with a colon, is enough on its own.
      const before = tokens[i - 1] ? word(tokens[i - 1]!) : '';
      const labelled = v.nameStems.length === 1 && !!before && (before === v.nameStems[0] || /[:：]$/.test(tokens[i - 1]!) && isOwn(before));
      if (!named || hits < Math.min(2, v.nameStems.length + (v.weak.size > 0 ? 1 : 0)) && !labelled) continue;
      let found: Located<number> | null = null;
      // `180 °C (160 °C fan)`: a figure in parentheses is an aside; the same measure written before it is the value.
      if (tokens[i]!.startsWith('(')) {
        const unit = tokens[i + 1]?.replace(/[()]/g, '');
        const main = tokens.findIndex((t, j) => j < i && /^[$€£]?\d[\d.,]*$/.test(t) && unit && tokens[j + 1]?.replace(/[()]/g, '') === unit);
        if (main >= 0) { const n = toNumber(tokens[main]!, scope, integer); if (n !== null) found = at(n, here, tokens[main]!); }
      }
      if (!found) { const n = toNumber(tokens[i]!, scope, integer); if (n !== null) found = at(n, here, tokens[i]!.replace(/^\(|\)$/g, '')); }
      if (!found) continue;
      if (left.map(word).some(isOwn)) return found;
      after ??= found;
    }
    if (after) return after;
  }
  return null;
}

/** A yes/no stated by a property word appearing in a labelled value (`Tickets: free, ...`). */
function booleanByWord(scope: Scope, v: Vocabulary): Located<boolean> | null {
  for (const p of scope.pairs) {
    const words = p.value.toLowerCase().split(/[^\p{L}]+/u).map(stem);
    const k = words.findIndex((w) => v.nameStems.includes(w));
    if (k < 0) continue;
    return derivedAt(!/\b(?:not|no|non)\s*$/i.test(words.slice(Math.max(0, k - 2), k).join(' ')), p.line);
  }
  return null;
}

/**
 * The rows under a table header whose first cell names the list (`DEDUCTIONS      Amount`), up to a blank line;
 * each row keeps its wide gaps, so its first cell stays its description.
 */
function tableRows(scope: Scope, v: Vocabulary): Rows {
  const lines = scope.doc.lines;
  let best: Rows = { rows: [], at: [], header: null };
  let bestScore = MIN_SCORE - 1e-9;
  for (let i = 0; i < lines.length; i++) {
    const cells = lines[i]!.raw.trim().split(/\s{2,}/);
    const score = labelScore(cells[0]!, v);
    if (score <= bestScore || !cells.slice(1).every((c) => /^[\p{L}][\p{L} .%/#-]{0,19}$/u.test(c))) continue;
    // `DEDUCTIONS` alone over rows of columns: a heading with no header; the rows follow it.
    if (cells.length < 2 && !(lines[i + 1]?.text && lines[i + 1]!.raw.trim().split(/\s{2,}/).length >= 2)) continue;
    const rows: string[] = [];
    const rowLines: number[] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.text; j++) {
      if (/^[-=_\s]+$/.test(lines[j]!.text) || SUM_ROW.test(lines[j]!.text)) continue;
      // `Deductible per claim: $2,500` under rows of columns is a labelled fact of its own, where the rows end.
      if (rows.length && PAIR_LINE.test(lines[j]!.text) && !PAIR_LINE.test(lines[i + 1]!.text)) break;
      rows.push(lines[j]!.raw);
      rowLines.push(j);
    }
    // The heading that names the list best (`LIMITS` over `COVERAGES` for limits described as `Each coverage limit`).
    if (rows.length) { best = { rows, at: rowLines.map((r) => [r]), header: cells.length >= 2 ? cellsOf(lines[i]!.raw) : null }; bestScore = score; }
  }
  return best;
}

/** A list's rows as written (wide gaps kept, bullets dropped), the lines they stand on, and the table header above them. */
interface Rows { rows: string[]; at: number[][]; header: Cell[] | null }

const PAIR_LINE = /^[\p{L}][\p{L} .'’/&()-]{0,40}:\s+\S/u;

/** A sum under a list (`Total deductions  $814.50`) is not one of its items. */
const SUM_ROW = /^\s*(?:total|subtotal|sub-total|sum|gesamt|net\s+pay|grand\s+total)\b/i;

/**
 * The rows of a list of objects: under a heading that names the property (the heading is the header when it is a row
 * of columns), else under a table header whose first cell names it, else the values of matching labels.
 */
function rowsFor(scope: Scope, v: Vocabulary): Rows {
  let bestScore = MIN_SCORE;
  let best: Section | null = null;
  const size = (s: Section) => s.items.length + s.body.length;
  for (const s of scope.doc.sections) {
    if (SUM_ROW.test(s.heading)) continue;
    const score = labelScore(s.heading, v);
    // Between headings naming it alike, the longer list is the list (`Period of cover` holds one line).
    if (size(s) && (score > bestScore || score === bestScore && best && size(s) > size(best))) { bestScore = score; best = s; }
  }
  if (best) {
    // The block under the heading, to its first blank line (a row the segmenter read as a pair is a row too).
    const block: { raw: string; line: number }[] = [];
    for (const l of scope.doc.lines.slice(best.line + 1)) { if (!l.text) { if (block.length) break; continue; } block.push({ raw: l.raw, line: l.index }); }
    const raw = block.map((r) => ({ ...r, raw: stripBullet(r.raw) !== null ? r.raw.replace(BULLET_RE, (m) => ' '.repeat(m.length)) : r.raw }))
      .filter((r) => !SUM_ROW.test(r.raw) && !/^[-=_\s|:+]+$/.test(r.raw));
    const headCells = cellsOf(scope.doc.lines[best.line]!.raw);
    return { rows: raw.map((r) => r.raw), at: raw.map((r) => [r.line]), header: headCells.length >= 3 ? headCells : null };
  }
  const table = tableRows(scope, v);
  if (table.rows.length) return table;
  const items = listFor(scope, v);
  return { rows: items.map((i) => i.value), at: items.map((i) => [...(i.lines ?? [])]), header: null };
}

/** List items under a heading that names the property, else a table's rows, else values of matching labels (`Talk: ...`). */
function listFor(scope: Scope, v: Vocabulary): Located<string>[] {
  let bestScore = MIN_SCORE;
  let best: { items: string[]; lines: number[] } | null = null;
  for (const s of scope.doc.sections) {
    // `Total Deductions: 870.73` sums the list; it does not hold it.
    if (/^(?:total|sum|subtotal|gesamt)\b/i.test(s.heading)) continue;
    const score = labelScore(s.heading, v);
    const items = s.items.length ? s.items : s.body;
    if (score > bestScore && items.length) { bestScore = score; best = { items, lines: sectionLines(s) }; }
  }
  if (best) return best.items.map((i) => at(clean(i), best!.lines));
  const table = tableRows(scope, v);
  if (table.rows.length) return table.rows.map((r, k) => at(r.trim(), table.at[k]!));
  const values = scope.pairs.filter((p) => labelScore(p.label, { ...v, nameStems: [...v.nameStems, ...v.weak] }) >= 0.7);
  if (values.length > 1) return values.map((p) => at(p.value, p.line));
  if (values.length === 1 && /[,;]/.test(values[0]!.value)) return values[0]!.value.split(/\s*[,;]\s*/).map((part) => at(part, values[0]!.line));
  return [];
}

function subScope(scope: Scope, v: Vocabulary): Scope | null {
  const p = bestPair(scope, v, () => true);
  let lines: string[] = [];
  let from: number[] = [];
  if (p) {
    const own = [p.value, ...p.more].map((text, k) => ({ text, line: p.line + k })).filter((l) => l.text);
    lines = own.map((l) => l.text);
    from = own.map((l) => l.line);
    if (!p.value && p.more.length === 0) {
      for (let j = p.line + 1; j < scope.doc.lines.length && scope.doc.lines[j]!.text; j++) { lines.push(scope.doc.lines[j]!.text); from.push(j); }
    }
  } else {
    const s = scope.doc.sections.find((x) => labelScore(x.heading, v) >= MIN_SCORE);
    if (!s) return null;
    lines = [...s.body, ...s.items];
    // Body and items interleave in the document: each is looked for among the section's lines.
    const span = sectionLines(s);
    from = lines.map((text) => span.find((i) => scope.doc.lines[i]!.text.includes(text.slice(0, 20))) ?? s.line);
  }
  if (lines.length === 0) return null;
  const pairs = lines.flatMap((l, i) => {
    const m = /^([\p{L}][\p{L} ]{0,30}):\s*(.*)$/u.exec(l);
    return m ? [{ label: m[1]!, value: clean(m[2]!), more: [], line: from[i]! }] : [];
  });
  return { doc: scope.doc, pairs, lines, at: from, root: false };
}

/** A nested object's member by what it is: a date of a range, a phone, an e-mail, a name (first words), an address (the rest). */
function memberByShape(name: string, flavour: ReturnType<typeof stringFlavour>, scope: Scope): Located<string> | null {
  const value = memberValue(name, flavour, scope);
  return value ? at(value, [...new Set(scope.at)]) : null;
}

function memberValue(name: string, flavour: ReturnType<typeof stringFlavour>, scope: Scope): string | null {
  const text = scope.lines.join('\n');
  if (flavour === 'date') {
    // `Pay Period: 01/02/2026 to 28/02/2026` for { start, end }: the range's first and last dates.
    const dates = findDates(text, scope.doc.dateOptions);
    if (asksForRangeEnd(name)) return dates.length > 1 ? dates[dates.length - 1]!.iso : null;
    return dates[0]?.iso ?? null;
  }
  if (/phone|tel|mobile/i.test(name)) return PHONE_RE.exec(text)?.[0].trim() ?? null;
  if (/mail/i.test(name)) return EMAIL_RE.exec(text)?.[0] ?? null;
  const parts = scope.lines.length > 1 ? scope.lines : scope.lines[0]!.split(/\s*,\s*/);
  const plain = parts.filter((p) => !PHONE_RE.test(p) && !EMAIL_RE.test(p));
  if (/name|person|who/i.test(name)) return plain[0] && !/\d/.test(plain[0]) ? dropParens(plain[0]) : null;
  if (/address|location|street/i.test(name)) {
    const rest = scope.lines.length > 1 ? plain.slice(1) : [];
    return rest.length ? rest.map(clean).join(', ') : null;
  }
  return null;
}

/** A pair's lines: its own and the continuation lines under it. */
const pairLines = (p: { line: number; more: string[] }) => Array.from({ length: p.more.length + 1 }, (_, k) => p.line + k);

function extractValue(name: string, raw: unknown, scope: Scope, root: JsonSchema, first: boolean, rec: Recorder, pointer: string, vocab?: Vocabulary): unknown {
  const node = resolve(raw, root);
  const kind = kindOf(node);
  const v = vocab ?? vocabulary(name, node.description);
  switch (kind) {
    case 'object': {
      const inner = subScope(scope, v);
      return extractObject(node, inner ?? { ...scope, within: v }, root, rec, pointer, !inner);
    }
    case 'array': {
      const items = resolve(node.items, root);
      // An item none of whose members was read says nothing: it is left out, not answered as an object of nulls.
      if (kindOf(items) === 'object') {
        const rows = rowsFor(scope, v);
        return runField(list<unknown, Record<string, unknown>>('object', [finder<unknown, Record<string, unknown>[]>('rows under the property\'s heading', () =>
          rows.rows.map((row, k) => at(itemFromRow(items, row, rows.header, scope.doc.reading, root), rows.at[k]!))
            .filter((o) => Object.values(o.value).some((x) => x !== null && !(Array.isArray(x) && x.length === 0))))]), scope.doc, rec, pointer);
      }
      const k = kindOf(items);
      const itemKind: FieldKind = k === 'number' || k === 'integer' ? 'money' : k === 'boolean' ? 'flag' : stringKind(name, items);
      return runField(list<unknown, unknown>(itemKind, [finder<unknown, unknown[]>('items under the property\'s heading', () => listFor(scope, v)
        .map((t) => ({ t, value: k === 'number' || k === 'integer' ? toNumber(t.value, scope, k === 'integer') : k === 'boolean' ? toBoolean(t.value) : toString(name, items, t.value.replace(/^[\p{L} ]{2,20}:\s+/u, ''), scope) }))
        .filter(({ value }) => value !== null)
        .map(({ t, value }) => (k === 'boolean' ? derivedAt(value, t.lines ?? []) : at(value, t.lines ?? []))))]), scope.doc, rec, pointer);
    }
    case 'boolean':
      return runField(field('flag', [
        finder('labelled yes or no', () => { const p = bestPair(scope, v, (val) => toBoolean(val) !== null); return p ? derivedAt(toBoolean(p.value), p.line, p.value) : null; }),
        finder('property word in a value', () => (scope.root ? booleanByWord(scope, v) : null)),
      ]), scope.doc, rec, pointer);
    case 'number':
    case 'integer': {
      const integer = kind === 'integer';
      const figureOf = (p: { line: number; value: string; more: string[] } | null) => {
        if (!p) return null;
        const n = toNumber(p.value, scope, integer);
        return n === null ? null : at(n, pairLines(p));
      };
      return runField(field('money', [
        // A price, rate or total is money: a labelled figure with a currency or cents wins over a bare count.
        finder('labelled money', () => (MONEY_PROPERTY.test(name) ? figureOf(bestPair(scope, v, (val) => isMoney(val, scope))) : null)),
        finder('labelled figure', () => figureOf(bestPair(scope, v, (val) => toNumber(val, scope, integer) !== null))),
        finder('figure beside the property\'s words', () => numberNear(scope, v, integer)),
        finder(LEARNED, () => (scope.root ? rankedValue(scope.doc, integer ? 'count' : 'money', { key: 'custom', words: customFieldWords(name, node) }) as Located<number> | null : null)),
      ]), scope.doc, rec, pointer);
    }
    default:
      return runField(field(stringKind(name, node), stringFinders(name, node, scope, v, first)), scope.doc, rec, pointer);
  }
}

/** The bound of a string property, by what it asks for. */
function stringKind(name: string, node: JsonSchema): FieldKind {
  const flavour = stringFlavour(name, node);
  if (flavour === 'date' || flavour === 'time' || flavour === 'currency') return flavour;
  if (Array.isArray(node.enum)) return 'choice';
  if (/name$/i.test(name)) return 'name';
  if (/title/i.test(name)) return 'title';
  if (/address|location|venue|where/i.test(name)) return 'address';
  return 'statement';
}

/** The finders of a string property, most specific first. */
/**
 * A string read from some lines, where it stands: a person's first name completed with the surname the document
 * writes elsewhere (`Dear Oluwaseun,` and `To: Oluwaseun Adeyemi`) stands where the whole name is written.
 */
function stringAt(doc: Doc, value: string | null, lines: number[]): Located<string> | null {
  if (!value) return null;
  const spaced = value.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  const inLines = lines.some((i) => new RegExp(spaced, 'iu').test(doc.lines[i]?.raw ?? ''));
  if (inLines || value.split(' ').length < 2) return at(value, lines);
  const whole = new RegExp(spaced, 'u').exec(doc.text);
  return whole ? inText(value, whole.index, whole.index + whole[0].length) : at(value, lines);
}

function stringFinders(name: string, node: JsonSchema, scope: Scope, v: Vocabulary, first: boolean): Finder<unknown, string>[] {
  const flavour = stringFlavour(name, node);
  const rootOnly = (f: Finder<unknown, string>) => finder<unknown, string>(f.name, () => (scope.root ? f.find(null) : null));
  return [
    // `Venue: Hall 3` (with the address lines under it for an address), by the label that names the property best.
    finder('labelled value', () => {
      const p = bestPair(scope, v, (val) => toString(name, node, val, scope) !== null);
      if (!p) return null;
      const joined = flavour === 'plain' && p.more.length && /address|venue|location|where/i.test(`${name} ${p.label}`) ? [p.value, ...p.more].filter(Boolean).join(', ') : p.value;
      return stringAt(scope.doc, toString(name, node, joined, scope), pairLines(p));
    }),
    // In a nested object's block: a date of a range, a phone, an e-mail, a name (first words), an address (the rest).
    finder('member by shape', () => (scope.root ? null : memberByShape(name, flavour, scope))),
    rootOnly(finder('document currency', () => (flavour === 'currency' ? documentCurrency(scope.doc) : null))),
    // `Free cancellation until 5 June 2026`: a date in a sentence with the property's own words.
    rootOnly(finder('date beside the property\'s words', () => (flavour === 'date' ? dateInSentence(name, v, scope) : null))),
    // A letter's addressee: `Dear Ms Ada Obi,`. A person is never the document's title line.
    rootOnly(finder('salutation', () => {
      if (!PERSON.test(name) || !/name/i.test(name)) return null;
      const m = SALUTATION.exec(scope.doc.text);
      if (!m) return null;
      const line = scope.doc.lines.find((l) => l.at <= m.index && l.at + l.raw.length >= m.index);
      return stringAt(scope.doc, toString(name, node, clean(m[1]!), scope), line ? [line.index] : []);
    })),
    // `hotelName` and a first line `HOTEL CASA DEL TRIGO ****`: the letterhead names the kind of thing asked for.
    rootOnly(finder('letterhead naming the kind', () => {
      const kind = v.nameStems.filter((w) => w !== 'name');
      const top = scope.doc.lines.find((l) => l.text);
      if (!/Name$/.test(name) || PERSON.test(name) || kind.length === 0 || !top || !top.text.split(/\s+/).some((w) => wordsMatch(stem(w.toLowerCase()), new Set(kind)))) return null;
      // `From: Hotel Palazzo Ventimiglia <bookings@...>`: the name, without a label or address in angle brackets.
      return stringAt(scope.doc, clean(top.text.replace(/^[^:]{1,30}:\s*/, '').replace(/\s*<[^>]*>\s*$/, '').replace(/[*★☆]+/g, '')) || null, [top.index]);
    })),
    // The schema's first name or title property and the document's title line (`Spring Meetup, 120 places`: the part
    // before the figures).
    rootOnly(finder('title line', () => {
      if (!first || scope.within || !/name|title/i.test(name) || PERSON.test(name)) return null;
      // The carried document's first line: not a mail's header, salutation (`Dear Ms Achterberg,`) or note.
      const line = topLines(scope.doc)[0];
      // A sentence (`We are pleased to offer you ...`) is no title.
      if (!line || /[.!?]$/.test(line.text) && line.text.split(/\s+/).length >= 6) return null;
      const m = /:\s*(.+)$/.exec(line.text);
      const parts = (m ? m[1]! : line.text).split(/,\s+/);
      const named = parts.length > 1 && parts.slice(1).every((p) => /\d/.test(p)) ? parts[0]! : parts.join(', ');
      return stringAt(scope.doc, clean(named.replace(/[*★☆]+/g, '')) || null, [line.index]);
    })),
    // A date, an identifier or a line of text the rules did not find: the candidate the learned ranker chooses.
    rootOnly(finder(LEARNED, () => {
      const kind = flavour === 'date' ? 'date' : flavour !== 'plain' || Array.isArray(node.enum) ? null : isIdentifierProperty(name) ? 'id' : 'text';
      return kind ? rankedValue(scope.doc, kind, { key: 'custom', words: customFieldWords(name, node) }) as Located<string> | null : null;
    })),
  ];
}

function extractObject(node: JsonSchema, scope: Scope, root: JsonSchema, rec: Recorder, pointer: string, emptyScope = false): Record<string, unknown> {
  const props = (node.properties ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let first = scope.root;
  // Each property's sort of value (`string:date`, `number`): a bare label is contested only among siblings of one sort.
  const siblings = Object.entries(props).map(([name, raw]) => {
    const node = resolve(raw, root);
    const kind = kindOf(node);
    return { name, v: vocabulary(name, node.description), sort: kind === 'string' ? `string:${stringFlavour(name, node)}` : kind };
  });
  const inner: Scope = { ...scope, siblings };
  for (const [k, [name, raw]] of Object.entries(props).entries()) {
    if (emptyScope && !scope.root) { out[name] = kindOf(resolve(raw, root)) === 'array' ? [] : null; continue; }
    out[name] = extractValue(name, raw, inner, root, first, rec, `${pointer}/${escapeStep(name)}`, siblings[k]!.v);
    first = false;
  }
  return out;
}

export function extractCustomFromDoc(schema: JsonSchema, doc: Doc, rec: Recorder): Record<string, unknown> {
  return rulesFirst(doc, () => {
    if (rec.trace) for (const k of Object.keys(rec.trace)) delete rec.trace[k];
    if (rec.found) for (const k of Object.keys(rec.found)) delete rec.found[k];
    return extractObject(resolve(schema, schema), docScope(doc), schema, rec, '');
  });
}


