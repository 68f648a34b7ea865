// The words a reader sees just before a value: the label or phrase that introduces it ("Total due", "Rechnungsdatum",
// "หมายเลขผู้เสียภาษี"). They are features of the value's confidence, hashed together with the field they introduce, so
// the model learns from labelled documents which words in every language go with right values of each field instead
// of reading them from a list written per language.

/** How far back on the value's line, and on the line above when its own line says nothing before it. */
const WINDOW = 48;
/** The words nearest the value, at most. */
const MAX_WORDS = 6;

/** Scripts written without spaces between words: their runs are read as overlapping pairs of characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The words of a snippet, nearest the value last: letters only (figures and signs are the value's shape, not a label). */
function wordsOf(snippet: string): string[] {
  const out: string[] = [];
  for (const run of snippet.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{M}]+/u)) {
    if (!run) continue;
    if (UNSPACED.test(run) && run.length > 2) {
      const chars = [...run];
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else if ([...run].length >= 2 || UNSPACED.test(run)) {
      out.push(run);
    }
  }
  return out;
}

/** The words before `start` in `text`: on its own line, else on the nearest line above that has any. */
export function wordsBefore(text: string, start: number): string[] {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let words = wordsOf(text.slice(Math.max(lineStart, start - WINDOW), start));
  let end = lineStart - 1;
  for (let hops = 0; words.length === 0 && end > 0 && hops < 3; hops++) {
    const from = text.lastIndexOf('\n', end - 1) + 1;
    words = wordsOf(text.slice(Math.max(from, end - WINDOW), end));
    end = from - 1;
  }
  return words.slice(-MAX_WORDS);
}

/** FNV-1a, 32 bits: a stable hash of a string, the same at fitting and at answer time. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Buckets of the hashed context features (a power of two). */
export const CONTEXT_BUCKETS = 1 << 15;

/** The context features of a value: one per word before it, hashed with the field it introduces (`ctx:<bucket>`). */
export function contextFeatures(field: string, words: readonly string[]): Record<string, number> {
  const f: Record<string, number> = {};
  for (const w of words) f[`ctx:${hash32(`${field}\u0000${w}`) % CONTEXT_BUCKETS}`] = 1;
  return f;
}
