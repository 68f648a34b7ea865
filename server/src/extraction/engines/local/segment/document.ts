// The segmenter: a document as lines, key: value pairs and headed sections (lists or paragraphs).
import { LONE_MARK_SOURCE, readCurrencies } from '../normalise/currency.js';
import { detectBuddhistEra, detectDayFirst, findDates, type DateOptions } from '../normalise/dates.js';
import { detectNumberStyle, detectSpaceGroups, type NumberStyle, type Reading } from '../normalise/money.js';
import { clean, labelKey, stripBullet, trimPunct } from './text.js';
import { findEnvelopes } from './envelope.js';
import { GREETINGS, MAIL_NOTE_OPENERS } from '../lexicon.js';

export interface Line {
  index: number;
  raw: string;
  text: string;
  indent: number;
  /** Where `raw` starts in `doc.text` (side-by-side columns read one after the other keep their own place). */
  at: number;
}

export interface KeyValue {
  line: number;
  label: string;
  /** The label's normal key (see labelKey). */
  key: string;
  value: string;
  /** Indented lines below the pair that continue its value (an address under `From:`). */
  continuation: string[];
}

export interface Section {
  heading: string;
  key: string;
  line: number;
  /** The last line the section can hold: the line before the next section's heading (or the document's last). */
  end: number;
  /** Bulleted or numbered items, without their markers. */
  items: string[];
  /** Plain lines under the heading, each cleaned. */
  body: string[];
}

export interface Doc {
  /** The document normalised: line ends as `\n`, tabs as four spaces. */
  text: string;
  /** The offset in the document as sent of each offset of `text` (one more entry: its end). */
  toSource: (offset: number) => number;
  /** The document as sent. */
  source: string;
  lines: Line[];
  /** Key: value pairs of the document, without those of e-mail envelopes. */
  kvs: KeyValue[];
  sections: Section[];
  /** Lines of e-mail envelopes (`From:` / `Sent:` / `Subject:` blocks, `-----Original Message-----`): the mail's, not the document's. */
  envelope: ReadonlySet<number>;
  /** The envelopes' header pairs, for finders that read the mail on purpose (a renewal notice's sender). */
  mail: KeyValue[];
  /** The first line of the document a mail carries (0 when it is no mail): where its title, letterhead and date stand. */
  bodyStart: number;
  /** Ambiguous numeric dates read day-first, month-first, or (undefined: no evidence) not at all. */
  dayFirst: boolean | undefined;
  numberStyle: NumberStyle;
  /** How its figures read: the separator habit, which currency each shared mark (`$`, `kr`, `¥`) is, space grouping. */
  reading: Reading;
  currency: string | null;
  /** The document's own year, for dates written without one. */
  year: number | null;
  dateOptions: DateOptions;
}

const LABEL_RE = /^([\p{L}][\p{L}\p{M}\p{N} .,'’&/#()%-]{0,48}?)\s*[:：]\s*(?!\/\/)(.*)$/u;

function parsePair(chunk: string): { label: string; value: string } | null {
  const m = LABEL_RE.exec(chunk.trim());
  if (!m) return null;
  const label = clean(m[1]!);
  // A sentence that happens to hold a colon is not a label: labels are short.
  if (label.split(' ').length > 7) return null;
  if (/^\d/.test(m[2] ?? '') && /^\d{1,2}$/.test(label)) return null;
  return { label, value: clean(m[2] ?? '') };
}

/**
 * Pairs across a line's wide gaps (`Guest:   Ms Ana Ruiz        Adults: 2`): a chunk that is a pair starts one, and
 * the chunk after a bare label is its value even when it holds a colon of its own (`Arrival:   Fri 12.06 (from 15:00)`).
 * Null when the line does not start with a pair.
 */
function columnPairs(chunks: string[]): { label: string; value: string }[] | null {
  const out: { label: string; value: string }[] = [];
  // `Bristol BS4 5QW        Invoice No:   HPJ-10482`: a left column of plain text (an address) beside pairs.
  const first = chunks.findIndex((c) => parsePair(c) !== null);
  if (first < 0 || first > 0 && /\d/.test(parsePair(chunks[first]!)!.label)) return null;
  for (const c of chunks.slice(first)) {
    const p = parsePair(c);
    const last = out[out.length - 1];
    if (p && !(last && last.value === '' && /\d/.test(p.label))) out.push(p);
    else if (last) last.value = clean(`${last.value} ${c}`);
    else return null;
  }
  return out;
}

/** Key: value pairs, several per line when columns are separated by wide gaps (`Date: ...    Time: ...`). */
function keyValues(lines: Line[]): KeyValue[] {
  const out: KeyValue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.text || stripBullet(line.raw) !== null && !/^\s*[A-Za-z][^:]{0,30}:/.test(line.raw.replace(/^\s*[-*•]\s*/, ''))) continue;
    const body = line.raw.replace(/^\s*[-*•]\s+/, '');
    const chunks = body.trim().split(/\s{3,}|\t+/);
    let pairs = chunks.length > 1 ? columnPairs(chunks) : null;
    if (!pairs) pairs = [parsePair(body)].filter((p) => p !== null);
    // `Reg. code 14455667 | VAT No: EE102938475`: each pipe-separated part that is a pair counts.
    if (pairs.length === 0 && / \| /.test(body)) pairs = body.trim().split(/\s+\|\s+/).map((c) => parsePair(c)).filter((p) => p !== null);
    // `Invoice Number      TMS-44102`: a short label and its value across a wide gap, no colon.
    if (pairs.length === 0 && chunks.length === 2 && !body.includes(':') && /^[\p{L}][\p{L} .#'/-]{1,30}$/u.test(chunks[0]!) && chunks[0]!.split(' ').length <= 4 && /\d/.test(chunks[1]!)) {
      pairs = [{ label: clean(chunks[0]!), value: clean(chunks[1]!) }];
    }
    for (const p of pairs) {
      const kv: KeyValue = { line: i, label: p.label, key: labelKey(p.label), value: p.value, continuation: [] };
      // Indented lines directly below continue the value (`From: Name` then the address lines).
      if (pairs.length === 1) {
        const valueCol = line.raw.indexOf(p.value) >= 0 && p.value ? line.raw.indexOf(p.value) : -1;
        for (let j = i + 1; j < lines.length; j++) {
          const next = lines[j]!;
          if (!next.text || next.indent === 0 || next.indent < Math.min(valueCol, 4) || parsePair(next.text) && next.indent < valueCol) break;
          if (valueCol < 0 && next.indent <= line.indent) break;
          kv.continuation.push(next.text);
        }
      }
      out.push(kv);
    }
  }
  return out;
}

/** A short title-like line: a heading when list items or a paragraph follow it. */
function headingOf(text: string): { heading: string; rest: string } | null {
  const t = text.trim();
  // `4. Termination.` / `5. Renewal. Upon expiration, ...` / `Price Changes. Upon renewal, ...`
  const numbered = /^(?:(?:section|article|clause)\s+)?\d{1,2}(?:\.\d{1,2})*\.?\s+([A-Z][\p{L}'’&,/ -]{1,48}?)[.:]\s+(\S.*)$/u.exec(t)
    ?? /^([A-Z][\p{L}'’&/-]*(?: [\p{L}'’&/-]+){0,3})\.\s+([A-Z].*)$/u.exec(t);
  if (numbered && numbered[1]!.split(' ').length <= 5) return { heading: numbered[1]!, rest: numbered[2]! };
  const plainNumbered = /^(?:(?:section|article|clause)\s+)?\d{1,2}\.\s+([A-Z][\p{L}'’&,/ -]{1,48}?)\.?$/u.exec(t);
  if (plainNumbered && plainNumbered[1]!.split(' ').length <= 5) return { heading: plainNumbered[1]!, rest: '' };
  if (stripBullet(t) !== null) return null;
  const m = /^([^:]{1,60}?):?\s*$/.exec(t);
  // `Why Harrow & Finch?` heads the list below it; a sentence ending in `.`, `;` or `!` heads nothing.
  if (!m || /[.;!]$/.test(m[1]!) || m[1]!.split(/\s+/).length > 8) return null;
  return { heading: m[1]!, rest: '' };
}

function sections(lines: Line[], kvs: KeyValue[], envelope: ReadonlySet<number>): Section[] {
  const out: Section[] = [];
  let cur: Section | null = null;
  let lastItemIndent = -1;
  let lastItemNumber: number | null = null;
  let gap = false;
  const kvAt = new Map(kvs.map((kv) => [kv.line, kv]));
  // The next non-blank line after each line, found in one backward pass (not a scan per line).
  const nextText: (Line | undefined)[] = new Array(lines.length);
  for (let i = lines.length - 1, after: Line | undefined; i >= 0; i--) { nextText[i] = after; if (lines[i]!.text && !envelope.has(i)) after = lines[i]; }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // An envelope's lines part the document like a blank line.
    if (!line.text || envelope.has(i)) { gap = true; continue; }
    const item = stripBullet(line.raw);
    const kv = kvAt.get(i);
    const next = nextText[i];
    const nextIsContent = !!next && (stripBullet(next.raw) !== null || next.indent > line.indent);
    let head: { heading: string; rest: string } | null = null;
    if (kv && kv.value === '') head = { heading: kv.label, rest: '' };
    else if (!kv || /^\d/.test(line.text)) head = headingOf(line.text);
    // A heading needs content right after it, or a paragraph following an inline `Heading. Text`.
    const numberedHead = head && /^\d/.test(line.text);
    if (head && (head.rest || kv || nextIsContent || numberedHead || (gap || i === 0) && next && !headingOf(next.text) && !kvAt.has(next.index) && /[.;:]$/.test(next.text) === true)) {
      // `1. Q2 roadmap review` inside a list stays an item unless it is followed by its own sub-items (3.1).
      // The first `1. Spring fair planning` right under `Items discussed` is that list's item too.
      const openList = cur && !gap && (cur.items.length > 0 || cur.body.length === 0 && cur.line === i - 1 && !/^\d/.test(lines[cur.line]!.text));
      // `2. Treasurer's report: balance ...` after item 1 continues the numbered list, whatever its colon.
      const number = /^\s*(\d{1,2})[.)]\s/.exec(line.raw)?.[1];
      const continues = number !== undefined && lastItemNumber !== null && Number(number) === lastItemNumber + 1 && line.indent === lastItemIndent;
      if (item !== null && (!head.rest || continues) && cur && openList && !(next && /^\s*\d+\.\d/.test(next.raw))) {
        lastItemNumber = number !== undefined ? Number(number) : null;
        cur.items.push(item);
        lastItemIndent = line.indent;
        gap = false;
        continue;
      }
      if (!(item !== null && !head.rest && !numberedHead && !kv)) {
        cur = { heading: trimPunct(head.heading), key: labelKey(head.heading), line: i, end: i, items: [], body: head.rest ? [clean(head.rest)] : [] };
        out.push(cur);
        gap = false;
        lastItemIndent = -1;
        continue;
      }
    }
    // After a blank line, numbering that starts again (`1.` after `4.`) is a new part (minutes' numbered paragraphs
    // after the agenda), not more of the list.
    const restarted = Number(/^\s*(\d{1,2})[.)]\s/.exec(line.raw)?.[1] ?? NaN);
    if (item !== null && cur && gap && lastItemNumber !== null && restarted <= lastItemNumber) { cur = null; gap = false; continue; }
    if (item !== null && cur && (cur.items.length > 0 || cur.body.length === 0)) {
      // `- Tom Becker: write the runbook` is an item of the list it sits in, whatever its colon.
      cur.items.push(item);
      lastItemIndent = line.indent;
      lastItemNumber = Number(/^\s*(\d{1,2})[.)]\s/.exec(line.raw)?.[1] ?? NaN) || null;
      gap = false;
      continue;
    }
    if (kv) {
      // A labelled sentence is a one-paragraph section (`Renewal: Lessee may renew ...`).
      out.push({ heading: kv.label, key: kv.key, line: i, end: i + kv.continuation.length, items: [], body: [kv.value, ...kv.continuation] });
      cur = null;
      gap = false;
      continue;
    }
    if (!cur) { gap = false; continue; }
    if (gap && cur.items.length + cur.body.length > 0 && item === null) {
      // A blank line closes a heading's list or paragraph: what follows is the document's next part.
      cur = null;
      gap = false;
      continue;
    }
    if (item !== null) {
      cur.items.push(item);
      lastItemIndent = line.indent;
      lastItemNumber = Number(/^\s*(\d{1,2})[.)]\s/.exec(line.raw)?.[1] ?? NaN) || null;
    } else if (cur.items.length > 0 && line.indent > lastItemIndent && !gap) {
      cur.items[cur.items.length - 1] += ` ${line.text}`;
    } else cur.body.push(line.text);
    gap = false;
  }
  // What a section's items and paragraph may have been read from: its heading's line up to the next heading's.
  out.forEach((sec, k) => { sec.end = Math.max(sec.end, (out[k + 1]?.line ?? lines.length) - 1); });
  return out;
}

const GAP = / {3,}/g;
/** A run that is a figure with its currency marks (`$1,200.00`, `R 189,90`, `45 000 Ft`, `1.250,00 zł`): a table's column, not a block's. */
const MONEY_ONLY = new RegExp(String.raw`^(?:[\p{Sc}]|[A-Z]{3}|${LONE_MARK_SOURCE})?\s?\(?-?\d[\d.,' ]*(?:[.,]-)?\)?\s?(?:[\p{Sc}]|[A-Z]{3}|${LONE_MARK_SOURCE})?(?:\/\p{L}{1,5})?$`, 'u');

/** The text runs of a line separated by gaps of three spaces or more, with their columns. */
function runs(raw: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let at = raw.search(/\S/);
  if (at < 0) return out;
  GAP.lastIndex = at;
  for (let m = GAP.exec(raw); ; m = GAP.exec(raw)) {
    const end = m ? m.index : raw.trimEnd().length;
    if (end > at) out.push({ start: at, end, text: raw.slice(at, end) });
    if (!m) break;
    at = m.index + m[0].length;
    if (at >= raw.length) break;
  }
  return out;
}

/**
 * Side-by-side blocks read column by column: a letterhead beside the invoice's number and dates, `Bill To`
 * beside `Ship To`. A block qualifies when its lines hold at most two runs, at least two lines hold two, the
 * right runs start at one column and no left run crosses it. Tables (figures on the right, three runs) and
 * label/value lists (`Invoice Number      TMS-44102`) stay as they are.
 */
export function unfoldColumns(rawLines: string[]): string[] {
  return unfoldPlaced(rawLines.map((raw) => ({ raw, at: 0 }))).map((l) => l.raw);
}

interface PlacedLine { raw: string; at: number }

/** `unfoldColumns` keeping where each line (or column of a line) starts in the text. */
function unfoldPlaced(lines: PlacedLine[]): PlacedLine[] {
  const out: PlacedLine[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!lines[i]!.raw.trim()) { out.push(lines[i]!); i++; continue; }
    let j = i;
    while (j < lines.length && lines[j]!.raw.trim()) j++;
    const block = lines.slice(i, j);
    const split = columnOf(block.map((l) => l.raw));
    if (split === null) out.push(...block);
    else {
      out.push(...block.map((l) => ({ raw: l.raw.slice(0, split).trimEnd(), at: l.at })).filter((l) => l.raw.trim()));
      out.push({ raw: '', at: block[block.length - 1]!.at + block[block.length - 1]!.raw.length });
      out.push(...block.map((l) => ({ raw: l.raw.slice(split), at: l.at + split })).filter((l) => l.raw.trim()));
    }
    i = j;
  }
  return out;
}

/**
 * The text with line ends as `\n` and tabs as four spaces, and the offset in the original of each of its offsets:
 * the engine reads the normalised text, and its evidence points into the text as sent.
 */
function normalise(source: string): { text: string; toSource: (offset: number) => number } {
  if (!/[\r\t]/.test(source)) return { text: source, toSource: (o) => o };
  const out: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\r') {
      out.push('\n');
      origin.push(i);
      if (source[i + 1] === '\n') i++;
    } else if (c === '\t') {
      for (let k = 0; k < 4; k++) { out.push(' '); origin.push(i); }
    } else {
      out.push(c);
      origin.push(i);
    }
  }
  origin.push(source.length);
  return { text: out.join(''), toSource: (o) => origin[Math.max(0, Math.min(o, origin.length - 1))]! };
}

function columnOf(block: string[]): number | null {
  if (block.length < 2) return null;
  const rs = block.map(runs);
  if (rs.some((r) => r.length > 2)) return null;
  const twos = rs.filter((r) => r.length === 2);
  if (twos.length < 2) return null;
  const col = Math.min(...twos.map((r) => r[1]!.start));
  if (twos.some((r) => r[1]!.start > col + 2)) return null;
  // No run may straddle the gutter.
  if (rs.some((r) => r.some((x) => x.start < col - 1 && x.end > col - 2))) return null;
  const rights = twos.map((r) => r[1]!.text.trim());
  const lefts = twos.map((r) => r[0]!.text.trim());
  if (rights.some((t) => MONEY_ONLY.test(t))) return null;
  // `Invoice Nr:      BT/2026/0412` / `Invoice Number      TMS-1`: a column of labels beside their values.
  const labelLike = (t: string) => !/\d/.test(t) && !/:./.test(t) && t.split(/\s+/).length <= 4;
  if (lefts.every(labelLike) && !rights.some((t) => t.includes(':'))) return null;
  return col;
}

export function segment(text: string): Doc {
  const { text: normalised, toSource } = normalise(text);
  let offset = 0;
  const placed = normalised.split('\n').map((raw) => { const l = { raw, at: offset }; offset += raw.length + 1; return l; });
  const lines: Line[] = unfoldPlaced(placed).map(({ raw, at }, index) => ({
    index,
    raw: raw.replace(/\s+$/, ''),
    text: clean(raw),
    indent: /^\s*/.exec(raw)![0].length,
    at,
  }));
  const envelopes = findEnvelopes(lines.map((l) => l.raw));
  const allPairs = keyValues(lines);
  const kvs = allPairs.filter((kv) => !envelopes.lines.has(kv.line));
  const { marks, currency } = readCurrencies(normalised);
  const numberStyle = detectNumberStyle(normalised);
  const dayFirst = detectDayFirst(normalised, currency);
  // The document's year: the first four-digit year in a full date, for dates written without one.
  const buddhist = detectBuddhistEra(normalised);
  const first = findDates(normalised, { dayFirst, buddhist })[0];
  const year = first ? Number(first.iso.slice(0, 4)) : null;
  return {
    text: normalised,
    toSource,
    source: text,
    lines,
    kvs,
    sections: sections(lines, kvs, envelopes.lines),
    envelope: envelopes.lines,
    mail: allPairs.filter((kv) => envelopes.lines.has(kv.line)),
    bodyStart: envelopes.bodyStart,
    dayFirst,
    numberStyle,
    reading: { style: numberStyle, marks, spaceGroups: detectSpaceGroups(normalised) },
    currency,
    year,
    dateOptions: { dayFirst, year, ...(buddhist ? { buddhist } : {}) },
  };
}

const escapeWords = (words: string[]) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length).join('|');
/** `Hi all,`, `Dear Ms Ortiz,`, `Sehr geehrte Damen und Herren,`, `Hello, please find our invoice below.` */
const GREETING = new RegExp(`^(?:${escapeWords(GREETINGS)})(?![\\p{L}])(?:[^\\n]{0,60}[,!:]$|[,!]|\\s*$|[^\\n]*$(?<=(?:${escapeWords(MAIL_NOTE_OPENERS)})[^\\n]*))`, 'iu');
const MAIL_NOTE = new RegExp(`^(?:${escapeWords(MAIL_NOTE_OPENERS)})(?![\\p{L}])`, 'iu');

/** Whether a line opens a letter or mail (a salutation) or is a mail's own note about what it carries. */
export const isGreeting = (text: string) => GREETING.test(text.trim()) || MAIL_NOTE.test(text.trim());

/**
 * The document's own lines with text, from the top of the document a mail carries: without envelope lines, and
 * without the salutation and note a mail opens with (`Hi all,` / `Below are the notes from ...`; kept with `note`).
 * What finders reading "the top" of a document (a title, a letterhead, a date) look at.
 */
export function topLines(doc: Doc, opts: { note?: boolean } = {}): Line[] {
  const out: Line[] = [];
  let skipping = !opts.note, skippedParagraph = false;
  for (const l of doc.lines) {
    if (l.index < doc.bodyStart || doc.envelope.has(l.index)) continue;
    if (!l.text) { if (skippedParagraph) skippedParagraph = false; continue; }
    if (skipping) {
      if (skippedParagraph || isGreeting(l.text)) { skippedParagraph = true; continue; }
      skipping = false;
    }
    out.push(l);
  }
  return out;
}

/**
 * The lines of the document's top: its own lines from where the carried document starts, the first `n` of its lines
 * (blank ones counted); with `note`, a mail's opening note too (`Below are the notes from Wednesday's meeting`).
 */
export function headLines(doc: Doc, n: number, opts: { note?: boolean } = {}): Line[] {
  const top = topLines(doc, opts);
  const from = top[0]?.index ?? 0;
  return top.filter((l) => l.index < from + n);
}
