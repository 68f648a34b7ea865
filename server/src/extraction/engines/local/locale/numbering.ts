// Figures as each locale writes them, from ICU: the digits of the numbering systems documents use (Arabic-Indic,
// Persian, Devanagari, Bengali, Thai, Lao, Myanmar, full-width), and each locale's decimal and grouping separators.
import { LOCALES, lazily } from './locales.js';

/**
 * Numbering systems whose digits are read as ASCII ones. `hanidec` (〇一二三) is left out: its digits are everyday
 * characters of Chinese and Japanese text (`一` is "one", `三` a name), so folding them would change words.
 */
export const NUMBERING_SYSTEMS = ['arab', 'arabext', 'deva', 'beng', 'thai', 'laoo', 'mymr', 'fullwide'] as const;

/** The ten digits of a numbering system, 0 to 9, as ICU writes them. */
export function digitsOf(system: string): string[] {
  const format = new Intl.NumberFormat(`en-u-nu-${system}`, { useGrouping: false });
  return Array.from({ length: 10 }, (_, d) => format.format(d));
}

export interface Separators { decimal: string; group: string }

const separatorCache = new Map<string, Separators>();
/** A locale's decimal and grouping separators, in its own numbering system (`ar-EG`: `٫` and `٬`). */
export function separatorsOf(locale: string): Separators {
  let found = separatorCache.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    found = { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? '' };
    separatorCache.set(locale, found);
  }
  return found;
}

/** The numbering system a locale writes its figures in by default (`ar-EG`: `arab`, `fa`: `arabext`, `th-TH`: `latn`). */
export const numberingSystemOf = (locale: string): string => new Intl.NumberFormat(locale).resolvedOptions().numberingSystem;

/**
 * Characters folded to ASCII when a document is read: every native digit (-> `0`-`9`), the separators of the locales
 * that write native digits (Arabic `٫` -> `.`, `٬` -> `,`), and the full-width forms of the marks figures are written
 * with (`，` `．` `：` `／` `－` `％` `（` `）`, `￥` `￦` `＄` `￡`, the ideographic space), one UTF-16 unit each, so
 * offsets stay those of the text.
 */
export const figureFolds = lazily((): Map<string, string> => {
  const folds = new Map<string, string>();
  for (const system of NUMBERING_SYSTEMS) digitsOf(system).forEach((digit, d) => { if (digit.length === 1) folds.set(digit, String(d)); });
  for (const locale of LOCALES) {
    const { decimal, group } = separatorsOf(locale);
    for (const [sep, ascii] of [[decimal, '.'], [group, ',']] as const) if (sep.length === 1 && sep.charCodeAt(0) > 0x7f && !/\s/.test(sep)) folds.set(sep, ascii);
  }
  // Full-width and ideographic forms whose compatibility form (NFKC) is one of the figure's marks.
  const FIGURE_MARKS = new Set([',', '.', ':', '/', '-', '%', '(', ')', '$', '¥', '₩', '£', ' ']);
  for (let c = 0x3000; c <= 0xffef; c = c === 0x3000 ? 0xff00 : c + 1) {
    const ch = String.fromCharCode(c);
    const plain = ch.normalize('NFKC');
    if (plain !== ch && FIGURE_MARKS.has(plain)) folds.set(ch, plain);
  }
  return folds;
});
