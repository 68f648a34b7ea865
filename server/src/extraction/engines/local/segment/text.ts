// Small text shapes shared by the segmenter and the route mappers.

/** Trimmed, inner whitespace collapsed: the normal form of every text field. */
export const clean = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

/** A bullet or list number at the start of a line: `-`, `*`, `•`, `1.`, `2)`, `a)`, `3.1`, `[ ]`. */
export const BULLET_RE = /^\s*(?:[-*•·▪◦‣–—+>]|\(?\d{1,2}(?:\.\d{1,2})*[.)]?(?=\s)|\(?[a-zA-Z][.)](?=\s)|\(?[ivx]{1,4}[.)](?=\s)|\[[ xX]?\])\s+/u;

/** The text of a list line without its bullet, or null when the line is not a list item. */
export function stripBullet(line: string): string | null {
  const m = BULLET_RE.exec(line);
  if (!m) return null;
  // A bare number followed by text is an item only when it ends with `.`/`)` or is dotted (3.1): `12 Oak St` is not.
  const marker = m[0].trim();
  if (/^\d{1,2}$/.test(marker)) return null;
  return clean(line.slice(m[0].length));
}

/** Removes trailing punctuation that closes a label or a list item. */
export const trimPunct = (s: string) => s.replace(/^[\s,;:.\-–—]+|[\s,;:\-–—]+$/g, '');

/** Removes parenthesised asides: `Helen Okafor (CMO)` -> `Helen Okafor`. */
export const dropParens = (s: string) => clean(s.replace(/\s*\([^)]*\)/g, ''));

/** Words of a label, lower-case, OCR look-alike digits read as letters (`Tota1` -> `total`). */
export function labelKey(label: string): string {
  return label
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b[\d.,]+\s*%/g, ' ')
    .replace(/(?<=[a-z])[01](?=[a-z]|\b)|(?<=\b)[01](?=[a-z])/g, (d) => (d === '0' ? 'o' : 'l'))
    .replace(/[^\p{L}\p{N}#]+/gu, ' ')
    .trim();
}

function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Label equality that tolerates one OCR slip in a longer label (`Invoce Date`, `Subtotai`). */
export function sameLabel(key: string, synonym: string): boolean {
  if (key === synonym) return true;
  // Word by word, so `invoice no` never passes for `invoice to`: only longer words may carry one slip.
  const a = key.split(' '), b = synonym.split(' ');
  if (a.length !== b.length) return false;
  let slips = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (b[i]!.length < 5 || editDistance(a[i]!, b[i]!, 1) > 1) return false;
    slips++;
  }
  return slips <= (synonym.length >= 12 ? 2 : 1);
}

/** Whether a label key matches any synonym exactly (with OCR tolerance). */
export const labelIs = (key: string, synonyms: readonly string[]) => synonyms.some((s) => sameLabel(key, s));

/** Whether a label key starts or ends with a synonym as whole words. */
export function labelHas(key: string, synonyms: readonly string[]): boolean {
  const words = key.split(' ');
  return synonyms.some((syn) => {
    const n = syn.split(' ').length;
    if (n > words.length) return false;
    return sameLabel(words.slice(0, n).join(' '), syn) || sameLabel(words.slice(-n).join(' '), syn);
  });
}
