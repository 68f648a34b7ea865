// Sentences (and colon-separated clauses) of the prose, with their verbatim text for quotes.
import { clean } from './text.js';
import { HONORIFIC_ABBREVIATIONS, LEGAL_FORM_ABBREVIATIONS } from '../lexicon.js';
import { calendarNames } from '../locale/calendar-names.js';
import { lazily } from '../locale/locales.js';
import { monthNames } from '../normalise/month-names.js';

const monthAfter = lazily(() => new RegExp(`^\\s*(?:${monthNames().source})(?![\\p{L}])`, 'iu'));

/** Words whose full stop does not end a sentence: legal forms and honorifics (../lexicon.ts; dotted ones like `B.V.` end
 * in a single capital, handled below), and common abbreviations. */
const abbrev = lazily(() => new RegExp(String.raw`\b(?:${[...LEGAL_FORM_ABBREVIATIONS.filter((f) => !f.includes('.')), ...HONORIFIC_ABBREVIATIONS].join('|')}|no|nr|st|vs|etc|e\.g|i\.e|approx|art|sec|para|u\.s|${englishMonthAbbreviations()})\.$`, 'i'));
/** English months' abbreviations (`Jan.`, `Sept.`), from ICU. */
const englishMonthAbbreviations = () => [...calendarNames().shortByLanguage.get('en') ?? []].join('|');

/** Paragraphs (blank-line separated blocks, or single lines for list items and pairs) split into sentences. */
export function sentences(text: string, opts: { splitColons?: boolean } = {}): string[] {
  const out: string[] = [];
  const blocks: string[] = [];
  let cur: string[] = [];
  let curIsPair = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const startsItem = /^(?:[-*•]|\(?\d{1,2}(?:\.\d{1,2})*[.)]?\s|\(?[a-z][.)]\s|[\p{L}][\p{L}\p{N} '’&/.()-]{0,40}:\s)/u.test(line);
    // A new line that starts a list item or a pair starts a new block: each is its own statement. So does a capitalised
    // line after a pair's value (`Vendor: Cloudnest Inc.` / `This order renews ...`) or after a line ending in a full
    // stop (`... Acme Ltd.` / `The term ...`): the line break ends what an abbreviation's full stop would not.
    const prev = cur[cur.length - 1];
    const afterEnd = !!prev && /^[\p{Lu}"“]/u.test(line) && (/\.$/.test(prev) || curIsPair && cur.length === 1 && !/[,;:&(-]$|\b(?:the|a|an|and|or|of|for|to|in|on|by|with|at|from|per|unless|if)$/i.test(prev));
    if (!line || startsItem || afterEnd) {
      if (cur.length) blocks.push(cur.join(' '));
      cur = [];
      curIsPair = !!line && startsItem && /:\s/.test(line);
    }
    if (line) cur.push(line);
  }
  if (cur.length) blocks.push(cur.join(' '));
  for (const block of blocks) {
    let start = 0;
    const b = clean(block);
    const re = opts.splitColons ? /[.!?;:](?=\s+[\p{Lu}\p{Ll}"“(])|[.!?](?=\s*$)/gu : /[.!?](?=\s+[\p{Lu}"“(])|[.!?](?=\s*$)/gu;
    for (let m = re.exec(b); m; m = re.exec(b)) {
      const piece = b.slice(start, m.index + 1);
      // `am 1. Juli 2026`, `14. března`: a day's full stop before a month's name or a lower-case word ends no sentence.
      if (m[0] === '.' && (abbrev().test(piece) || /\b[A-Z]\.$/.test(piece) || /\d\.$/.test(piece) && /^\s*\d/.test(b.slice(m.index + 1))
        || /\b\d{1,2}\.$/.test(piece) && monthAfter().test(b.slice(m.index + 1)))) continue;
      // `Renewal: The subscription ...`: a heading before the colon is not a clause of its own.
      if (m[0] === ':' && /^\s*[A-Z][\w ]{0,25}:$/.test(piece)) { start = m.index + 1; continue; }
      if (clean(piece)) out.push(clean(piece));
      start = m.index + 1;
    }
    if (clean(b.slice(start))) out.push(clean(b.slice(start)));
  }
  return out;
}

/** A sentence and where it stands in the text it was read from. */
export interface PlacedSentence { text: string; start: number; end: number }

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `sentences`, each with its place in `text` (found in order, however the text breaks its lines). */
export function sentencesIn(text: string, opts: { splitColons?: boolean } = {}): PlacedSentence[] {
  const out: PlacedSentence[] = [];
  let cursor = 0;
  for (const sentence of sentences(text, opts)) {
    const re = new RegExp(sentence.split(' ').map(escape).join('\\s+'), 'gu');
    re.lastIndex = cursor;
    const m = re.exec(text);
    if (!m) continue;
    out.push({ text: sentence, start: m.index, end: m.index + m[0].length });
    cursor = m.index + m[0].length;
  }
  return out;
}
