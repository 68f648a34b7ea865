// Text folded for matching a quote however it was copied: whitespace runs as one space, case and compatibility forms
// folded (NFKC: `ﬁ` as `fi`, full-width digits as digits), typographic quotes and dashes as plain ones. Each folded
// code unit remembers the offset of the original code unit it came from, so a match maps back to exact offsets.

const PUNCTUATION: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00a0': ' ', '\u2007': ' ', '\u202f': ' ',
};

export interface FoldedText {
  /** The folded text. */
  text: string;
  /** For each code unit of `text`, the offset of the original code unit it came from; one more entry: the original length. */
  origin: Int32Array;
}

/** One grapheme (a letter with its combining marks) folded: what it stands for when matching. */
function foldGrapheme(g: string): string {
  const mapped = PUNCTUATION[g] ?? g;
  // NFKC composes `e` + U+0301 into `é`, which then matches a precomposed `é`.
  return mapped.normalize('NFKC').toLowerCase();
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function foldText(original: string): FoldedText {
  const out: string[] = [];
  const origin: number[] = [];
  let pendingSpace = -1;
  for (const { segment: cp, index: at } of graphemes.segment(original)) {
    if (/^\s+$/u.test(cp) || PUNCTUATION[cp] === ' ') {
      // Whitespace is one space, and none at the start.
      if (out.length > 0 && pendingSpace < 0) pendingSpace = at;
      continue;
    }
    if (pendingSpace >= 0) {
      out.push(' ');
      origin.push(pendingSpace);
      pendingSpace = -1;
    }
    const f = foldGrapheme(cp);
    for (let k = 0; k < f.length; k++) {
      out.push(f[k]!);
      origin.push(at);
    }
  }
  origin.push(original.length);
  return { text: out.join(''), origin: Int32Array.from(origin) };
}

/** A quote folded the same way (no offsets needed), trimmed. */
export function foldQuote(quote: string): string {
  return foldText(quote).text;
}

/**
 * The original offsets `[start, end)` of a folded match `[from, to)`: from the first code unit's origin to the end of
 * the grapheme the last one came from.
 */
export function originalSpan(folded: FoldedText, original: string, from: number, to: number): { start: number; end: number } {
  const start = folded.origin[from]!;
  const last = folded.origin[to - 1]!;
  const grapheme = graphemes.segment(original.slice(last, last + 32))[Symbol.iterator]().next().value!.segment;
  return { start, end: last + grapheme.length };
}
