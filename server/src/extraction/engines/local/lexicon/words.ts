// How the lexicon writes its lists: each concept once, its words by language, read as label keys (segment/text.ts
// `labelKey`: lower case, words only), each also without its accents (`fallig` for `fällig`, Greek capitals without
// tonos), so a document typed either way matches.
import { EXACT_ONLY, FUZZY_OK, labelKey } from '../segment/text.js';

/** The languages the lexicon writes words for (ISO 639-1), English first. */
export type Lang = 'en' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'de' | 'sv' | 'no' | 'da' | 'fi' | 'pl' | 'cs' | 'hu' | 'tr' | 'id' | 'ms' | 'vi' | 'zh' | 'ja' | 'ko' | 'ar' | 'el' | 'ro' | 'th';

export type ByLanguage = Partial<Record<Lang, readonly string[]>>;

/** A word without its accents: `fällig` -> `fallig`, `ΑΡΙΘΜΌΣ` -> `αριθμοσ`-like, Turkish dotless `ı` and Polish `ł` as plain letters. */
export const unaccented = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC').replace(/ı/g, 'i').replace(/ł/g, 'l').replace(/Ł/g, 'L');

/** One concept's words in every language, as label keys, each once (with its unaccented spelling), English first. */
export function labels(byLanguage: ByLanguage): string[] {
  const out = new Set<string>();
  for (const [lang, words] of Object.entries(byLanguage)) {
    for (const w of words ?? []) {
      for (const key of [labelKey(w), labelKey(unaccented(w))]) {
        if (!key) continue;
        out.add(key);
        // OCR slips are tolerated in English labels only (`Invoce`); another language's word matches as written.
        (lang === 'en' ? FUZZY_OK : EXACT_ONLY).add(key);
      }
    }
  }
  return [...out];
}

/** The words of several concepts in one list (a heading that may be any of them). */
export const union = (...lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];
