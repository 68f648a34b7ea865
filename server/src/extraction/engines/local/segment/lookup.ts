// Finding labelled values: `Label: value` pairs first, then lines that begin with a label and no colon
// (`TOTAL   $28.80`, `Subtotal ....... 7,000.00`, `DATE 02/20/2026   TIME 07:58`).
import type { Doc, KeyValue, Section } from './document.js';
import { labelHas, labelIs, labelKey, ocrLetters } from './text.js';
import { CODE_RE_SOURCE, LONE_MARK_SOURCE } from '../normalise/currency.js';

export type Match = 'is' | 'has';

const matches = (key: string, synonyms: readonly string[], how: Match) => (how === 'is' ? labelIs(key, synonyms) : labelHas(key, synonyms));

/** Every pair whose label matches, in document order. */
export function pairs(doc: Doc, synonyms: readonly string[], how: Match = 'is'): KeyValue[] {
  return doc.kvs.filter((kv) => matches(kv.key, synonyms, how));
}

/** The first matching pair with a non-empty value. */
export function pair(doc: Doc, synonyms: readonly string[], how: Match = 'is'): KeyValue | undefined {
  return pairs(doc, synonyms, how).find((kv) => kv.value !== '');
}

export interface LabelledLine {
  line: number;
  label: string;
  key: string;
  /** The text after the label. */
  rest: string;
}

/**
 * Lines read as `label value` where the label is the leading run of words before the first figure or currency
 * mark; also each wide-gap column of a line (`DATE 02/20/2026      TIME 07:58`).
 */
const labelledCache = new WeakMap<Doc, LabelledLine[]>();

/** A wide gap before a word starts another column, unless the word is a currency's (`Total      CHF 13.20`, `RM 33.90`). */
const COLUMN_GAP = new RegExp(String.raw`\s{4,}(?=[A-Za-z])(?!(?:${CODE_RE_SOURCE}|RM)\b|(?:${LONE_MARK_SOURCE})\s?\d)`, 'u');

/** `TOTAL  $28.80`, `VAT 20%  4.80`, `VALOR TOTAL R$ 108,77`, `TOTAL  R 291,90`: a label, then a figure or a currency mark of letters before one. */
const LABEL_THEN_FIGURE = new RegExp(String.raw`^([\p{L}][\p{L}\p{M}'’&/ .-]*?(?:\s*\([^)]*\))?(?:\s+\d+(?:[.,]\d+)?\s*%)?(?:\s*\([^)]*\))?(?:\s+\p{Lu}{1,2}\$)?)\s+((?:${LONE_MARK_SOURCE})\s?\(?-?\d.*|[^\s\p{L}].*)$`, 'u');

export function labelledLines(doc: Doc): LabelledLine[] {
  const cached = labelledCache.get(doc);
  if (cached) return cached;
  const out: LabelledLine[] = [];
  labelledCache.set(doc, out);
  for (const line of doc.lines) {
    if (!line.text || doc.envelope.has(line.index)) continue;
    for (const chunk of line.raw.trim().split(COLUMN_GAP)) {
      const original = chunk.trim();
      const c = ocrLetters(original);
      // `Label: value` / `Label ..... value` / `Label - value`, else `LABEL 12.00` where the value starts with a figure.
      if (!/^\p{L}/u.test(c)) continue;
      // The separator forms need a colon, dot leader or spaced dash somewhere: test for it before the long pattern.
      const m = (/:|\.\.|\s-\s/.test(c) ? /^([\p{L}][\p{L}\p{M}'’&/ ().%-]*?(?:\s*\([^)]*\))?(?:\s+\d+(?:[.,]\d+)?\s*%)?(?:\s*\([^)]*\))?)\s*(?::|\.{2,}|\s-\s)\s*(\S.*)$/u.exec(c) : null)
        // `VALOR TOTAL R$   108,77`, `TOTAL US$ 12.00`: a dollar written with letters closes the label.
        ?? LABEL_THEN_FIGURE.exec(c);
      if (!m) continue;
      // Same length as the original, so the value is read from the text as written.
      const rest = original.slice(original.length - m[2]!.length);
      out.push({ line: line.index, label: m[1]!.trim(), key: labelKey(m[1]!), rest: rest.replace(/^[.\s:]+/, '').trim() });
    }
  }
  return out;
}

/** Lines whose leading label matches. */
export function linesLabelled(doc: Doc, synonyms: readonly string[], how: Match = 'is'): LabelledLine[] {
  return labelledLines(doc).filter((l) => matches(l.key, synonyms, how));
}

/** Sections whose heading matches. */
export function sectionsFor(doc: Doc, synonyms: readonly string[], how: Match = 'has'): Section[] {
  return doc.sections.filter((s) => matches(s.key, synonyms, how) || s.key.split(' ').length <= 6 && synonyms.some((syn) => s.key.includes(syn) && syn.length >= 6));
}

export interface HeadedName {
  /** The heading as written (`CLIENT`, `Vendor:`). */
  label: string;
  /** The first line under it. */
  name: string;
  line: number;
}

/**
 * A role heading alone on its line (`Vendor`, `CLIENT`, `Contractor:`, often side by side with the other party's),
 * and the name on the first line under it.
 */
export function namesUnderHeadings(doc: Doc, synonyms: readonly string[]): HeadedName[] {
  const out: HeadedName[] = [];
  for (let i = 0; i < doc.lines.length; i++) {
    const t = doc.lines[i]!.text;
    if (!t || t.length > 40 || !labelIs(labelKey(t), synonyms) || !/^[\p{L} ]+:?$/u.test(t)) continue;
    const next = doc.lines.slice(i + 1).find((l) => l.text);
    if (next && next.index <= i + 2 && /^\p{Lu}[^.;:]*$/u.test(next.text)) out.push({ label: t.replace(/:$/, ''), name: next.text, line: next.index });
  }
  return out;
}
