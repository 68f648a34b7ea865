import { CUES, type Cue, type Kind, type Label } from './cues.js';

export type { Kind, Label } from './cues.js';

export const KINDS: readonly Kind[] = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal'];

export interface KindScore {
  kind: Label;
  confidence: number;
}

export interface Classified {
  kind: Label;
  confidence: number;
  /** The other labels weighed, most likely first (at most three). */
  alternatives: KindScore[];
}

/** What the classifier reads of a document: its head, where titles and labels are (a long contract is decided by its first pages). */
export const CLASSIFY_CHARS = 12_000;
/** The lines that can hold the document's title. */
const TITLE_LINES = 8;
/** A title is a short line (or part of one), and its title word stands near its start. */
const TITLE_CHARS = 80;
const TITLE_START = 30;
/** An e-mail's subject line is its title: `Subject:` (and its translations, `Re:`, `Fwd:`) is not part of it. */
const SUBJECT_LABEL = /^(?:(?:subject|betreff|objet|oggetto|asunto|assunto|onderwerp|re|fwd?|aw|wg|tr)\s*(?:\/\s*)?)+:\s*/i;
/** The least confidence a kind is answered with; below it the document is `other`. */
export const MIN_CONFIDENCE = 0.5;
/** How sharply evidence turns into confidence (a softmax temperature, in cue weights). */
const TEMPERATURE = 2.5;
/** What "none of them" scores when no other type's title is seen: a document needs more evidence than this. */
const OTHER_BASELINE = 5;

const round2 = (x: number) => Math.round(x * 100) / 100;

function countMatches(cue: Cue, text: string): number {
  const max = cue.max ?? 1;
  if (max === 1) return cue.re.test(text) ? 1 : 0;
  const re = new RegExp(cue.re.source, cue.re.flags.includes('g') ? cue.re.flags : `${cue.re.flags}g`);
  let n = 0;
  while (n < max && re.exec(text)) n++;
  return n;
}

/** The evidence of each label in a text, in cue weights. */
export function scores(text: string): Record<Label, number> {
  const read = text.slice(0, CLASSIFY_CHARS);
  const lines = read.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const titles = titleLines(lines);
  const out = {} as Record<Label, number>;
  for (const [label, cues] of Object.entries(CUES) as Array<[Label, Cue[]]>) {
    let score = 0;
    for (const cue of cues) {
      if (cue.where === 'title') {
        if (titleMatch(cue, titles)) score += cue.weight;
      } else {
        score += cue.weight * countMatches(cue, read);
      }
    }
    out[label] = score;
  }
  out.receipt += receiptShape(lines);
  return out;
}

/** Running prose rather than a heading or a name: three or more of the little words sentences are made of. */
export function isProse(line: string): boolean {
  return (line.match(/\b(?:the|shall|be|by|and|of|in|to|is|are|will|with|for|this|that|or|at|on|from|as|an|a)\b/g) ?? []).length >= 3;
}

/** Title lines: the first lines, each part of a line where a heading stands beside a letterhead apart. */
function titleLines(lines: string[]): string[] {
  return lines.slice(0, TITLE_LINES).flatMap((l) => l.split(/\s{3,}/)).map((l) => l.replace(SUBJECT_LABEL, ''))
    // A sentence is not a title ("Please find attached our invoice."): a title does not end with a full stop. Nor is
    // a numbered clause ("6. Renewal. This Agreement ...") or a line of prose ("This Lease shall be governed by") the
    // title of a document: they are inside one.
    .filter((l) => l.length <= TITLE_CHARS && !/[a-z]{3,}\.$/i.test(l) && !/^\d{1,2}(?:\.\d{1,2})*\.?\s/.test(l) && !/^[a-zäöüéèàçñ]/.test(l) && !isProse(l));
}

/**
 * A title word near the start of its line: "Course fee paid (receipt TAG-1)" is not a receipt's title. A label's value
 * is not a title either ("Fee paid: ..."), except an e-mail's subject, whose label is dropped.
 */
function titleMatch(cue: Cue, titles: string[]): boolean {
  return titles.some((line) => { const m = cue.re.exec(line); return m !== null && m.index <= TITLE_START && !line.slice(0, m.index).includes(':'); });
}

/** The weight of the strongest document title (of any kind, `other` types too) among a text's first lines. */
export function titleWeight(text: string): number {
  const titles = titleLines(text.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
  let best = 0;
  for (const cues of Object.values(CUES)) for (const cue of cues) if (cue.where === 'title' && cue.weight > best && titleMatch(cue, titles)) best = cue.weight;
  return best;
}

/**
 * A till receipt's shape: short lines (a narrow roll of paper), many of them ending in an amount. Invoices and
 * statements are printed across a page.
 */
function receiptShape(lines: string[]): number {
  if (lines.length < 4) return 0;
  const lengths = lines.map((l) => l.length).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)]!;
  const priced = lines.filter((l) => /\d[.,]\d{2}\s*[A-Z€$£]?\s*$/.test(l)).length;
  return median <= 34 && priced >= 3 ? 4 : median <= 42 && priced >= 3 ? 2 : 0;
}

/**
 * The kind of a document, from the evidence of each kind (`CUES`): a softmax over the scores, with `other` standing
 * for "none of them" (another type's title, or too little evidence for any). The most likely kind is answered only
 * when it is among `kinds` and its confidence is at least MIN_CONFIDENCE; otherwise the answer is `other`.
 */
export function classifyText(text: string, kinds: readonly Kind[] = KINDS): Classified {
  const raw = scores(text);
  const labels: Label[] = [...KINDS, 'other'];
  const value = (l: Label) => (l === 'other' ? Math.max(OTHER_BASELINE, raw.other) : raw[l]);
  const top = Math.max(...labels.map(value));
  const exp = labels.map((l) => Math.exp((value(l) - top) / TEMPERATURE));
  const sum = exp.reduce((a, b) => a + b, 0);
  const ranked = labels.map((kind, i) => ({ kind, confidence: exp[i]! / sum })).sort((a, b) => b.confidence - a.confidence);
  const best = ranked[0]!;
  let answer: KindScore;
  if (best.kind !== 'other' && kinds.includes(best.kind) && best.confidence >= MIN_CONFIDENCE) answer = best;
  else if (best.kind === 'other') answer = best;
  // Not confident, or a kind not asked for: `other`, as sure as the best kind was unsure (or as sure, when not asked for).
  else answer = { kind: 'other', confidence: kinds.includes(best.kind as Kind) ? 1 - best.confidence : best.confidence };
  return {
    kind: answer.kind,
    confidence: round2(answer.confidence),
    alternatives: ranked.filter((r) => r.kind !== answer.kind).slice(0, 3).map((r) => ({ kind: r.kind, confidence: round2(r.confidence) })),
  };
}
