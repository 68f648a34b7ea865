// Currency symbols and names as ICU writes them, mapped to ISO 4217 codes: each locale's own currency with its symbol,
// narrow symbol and name in every plural form (`złotych polskich`, `české koruny`), and every currency's display
// name in every locale the engine reads (`Schweizer Franken`, `dollars canadiens`, `Türk lirası`).
import { LOCALES, LOCALE_CURRENCIES, lazily } from './locales.js';

export interface CurrencyNames {
  /** Names in words, lower case (`canadian dollars`, `francs suisses`) -> their code; a name two currencies share is left out. */
  names: Map<string, string>;
}

/** A plural category's sample number, for names that change with the count (`1 złoty`, `2 złote`, `5 złotych`). */
const SAMPLES: Record<string, number> = { one: 1, two: 2, few: 3, many: 5, other: 100, zero: 0 };

const clean = (s: string) => s.replace(/[\u200e\u200f\u00a0]/g, ' ').replace(/\s+/g, ' ').trim();

/** The currency as `locale` writes it beside `n` (`tr` writes its name after the symbol: `₺1,00 Türk lirası`: the last part is the name). */
function currencyParts(locale: string, code: string, display: 'symbol' | 'narrowSymbol' | 'name', n: number): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: display }).formatToParts(n).filter((p) => p.type === 'currency');
  return clean(parts[parts.length - 1]?.value ?? '');
}

/** The codes whose names and symbols are read: every locale's own currency, and those passed in. */
export function currencyNames(extraCodes: readonly string[] = []): CurrencyNames {
  return cached(extraCodes.join(','), () => build(extraCodes));
}

const cache = new Map<string, CurrencyNames>();
function cached(key: string, make: () => CurrencyNames): CurrencyNames {
  let found = cache.get(key);
  if (!found) { found = make(); cache.set(key, found); }
  return found;
}

/**
 * Currency symbols (`€`, `CA$`, `zł`, `₫`, `د.إ.`) -> every code ICU writes that symbol for; more than one when several
 * currencies share it (`$`, `kr`, `¥`, `Rs`): each locale's own currency as it writes it, and every code of `codes` as
 * English writes it (`CA$`, `A$`, `NT$`).
 */
export function currencySymbols(codes: readonly string[]): Map<string, Set<string>> {
  const symbols = new Map<string, Set<string>>();
  const add = (s: string, code: string) => { if (s && s !== code && !/^[A-Z]{3}$/.test(s)) (symbols.get(s) ?? symbols.set(s, new Set()).get(s)!).add(code); };
  for (const locale of LOCALES) {
    const code = LOCALE_CURRENCIES[locale];
    add(currencyParts(locale, code, 'symbol', 1), code);
    add(currencyParts(locale, code, 'narrowSymbol', 1), code);
  }
  for (const code of new Set([...Object.values(LOCALE_CURRENCIES), ...codes])) {
    add(currencyParts('en', code, 'symbol', 1), code);
    add(currencyParts('en', code, 'narrowSymbol', 1), code);
  }
  return symbols;
}

function build(extraCodes: readonly string[]): CurrencyNames {
  const named = new Map<string, Set<string>>();
  const addName = (s: string, code: string) => { const k = s.toLowerCase(); if (k.length >= 2 && !/\d/.test(k)) (named.get(k) ?? named.set(k, new Set()).get(k)!).add(code); };
  const codes = [...new Set([...Object.values(LOCALE_CURRENCIES), ...extraCodes])];
  // Each locale's own currency as that locale writes it.
  for (const locale of LOCALES) {
    const code = LOCALE_CURRENCIES[locale];
    for (const category of new Intl.PluralRules(locale).resolvedOptions().pluralCategories) addName(currencyParts(locale, code, 'name', SAMPLES[category] ?? 100), code);
  }
  // Every currency as English writes it (`CA$`, `A$`, `NT$`; `Canadian dollars`), and its name in every locale.
  for (const code of codes) {
    addName(currencyParts('en', code, 'name', 1), code);
    addName(currencyParts('en', code, 'name', 100), code);
  }
  for (const locale of LOCALES) {
    const display = new Intl.DisplayNames(locale, { type: 'currency' });
    for (const code of codes) { const name = display.of(code); if (name && name !== code) addName(clean(name), code); }
  }
  const names = new Map<string, string>();
  for (const [name, found] of named) if (found.size === 1) names.set(name, [...found][0]!);
  return { names };
}

/** Currency names and symbols of every locale's own currency and of `codes`, computed once. */
export const engineCurrencyNames = lazily(() => currencyNames());
