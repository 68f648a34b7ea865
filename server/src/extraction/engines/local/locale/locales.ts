// The locales the offline engine reads: the countries and languages its documents come from. Everything the engine
// knows of a locale (month and weekday names, digits, separators, currency marks and names, calendars) is read from
// Node's ICU for these tags (see the other modules of this folder), never typed by hand.

/**
 * BCP 47 tags, one per country and language the engine is written for, each with its country's currency: the one
 * fact of a locale ICU's Intl interface does not give (CLDR keeps it in supplemental data Intl does not expose).
 */
export const LOCALE_CURRENCIES = {
  'en-US': 'USD', 'en-GB': 'GBP', 'en-IN': 'INR', 'en-AU': 'AUD', 'en-NG': 'NGN', 'en-KE': 'KES', 'en-ZA': 'ZAR', 'en-PH': 'PHP',
  'en-SG': 'SGD', 'en-CA': 'CAD', 'en-IE': 'EUR', 'en-NZ': 'NZD', 'en-HK': 'HKD', 'en-GH': 'GHS', 'en-UG': 'UGX', 'en-TZ': 'TZS',
  'en-PK': 'PKR', 'en-LK': 'LKR',
  'es-ES': 'EUR', 'es-MX': 'MXN', 'es-AR': 'ARS', 'es-CL': 'CLP', 'es-CO': 'COP', 'es-PE': 'PEN', 'es-UY': 'UYU', 'es-DO': 'DOP',
  'es-PY': 'PYG', 'es-GT': 'GTQ', 'es-CR': 'CRC', 'es-BO': 'BOB', 'pt-BR': 'BRL', 'pt-PT': 'EUR',
  'fr-FR': 'EUR', 'fr-CA': 'CAD', 'fr-CH': 'CHF', 'fr-BE': 'EUR', 'fr-MA': 'MAD', 'fr-TN': 'TND', 'fr-SN': 'XOF', 'fr-CM': 'XAF',
  'de-DE': 'EUR', 'de-AT': 'EUR', 'de-CH': 'CHF', 'it-IT': 'EUR', 'it-CH': 'CHF', 'nl-NL': 'EUR', 'nl-BE': 'EUR',
  'pl-PL': 'PLN', 'cs-CZ': 'CZK', 'sk-SK': 'EUR', 'hu-HU': 'HUF', 'ro-RO': 'RON', 'bg-BG': 'BGN', 'sr-RS': 'RSD', 'el-GR': 'EUR',
  'tr-TR': 'TRY', 'ru-RU': 'RUB', 'uk-UA': 'UAH', 'be-BY': 'BYN', 'ka-GE': 'GEL',
  'sv-SE': 'SEK', 'da-DK': 'DKK', 'nb-NO': 'NOK', 'fi-FI': 'EUR', 'is-IS': 'ISK',
  // Arabic: the Gulf and Egypt, and the Levant (whose month names are the Syriac ones, `كانون الثاني`).
  'ar-AE': 'AED', 'ar-SA': 'SAR', 'ar-EG': 'EGP', 'ar-QA': 'QAR', 'ar-KW': 'KWD', 'ar-BH': 'BHD', 'ar-OM': 'OMR', 'ar-JO': 'JOD',
  'ar-LB': 'LBP', 'he-IL': 'ILS', 'hi-IN': 'INR', 'bn-BD': 'BDT', 'ne-NP': 'NPR',
  'id-ID': 'IDR', 'ms-MY': 'MYR', 'vi-VN': 'VND', 'th-TH': 'THB', 'fil-PH': 'PHP', 'sw-KE': 'KES',
  'zh-CN': 'CNY', 'zh-TW': 'TWD', 'zh-HK': 'HKD', 'ja-JP': 'JPY', 'ko-KR': 'KRW',
} as const;

export type LocaleTag = keyof typeof LOCALE_CURRENCIES;
export const LOCALES = Object.keys(LOCALE_CURRENCIES) as LocaleTag[];

/** The language of a tag (`pt-BR` -> `pt`). */
export const languageOf = (tag: string): string => new Intl.Locale(tag).language;

/** Runs `make` once, on first use, and keeps its answer: ICU is asked only when a document needs it. */
export function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) { value = make(); made = true; }
    return value as T;
  };
}
