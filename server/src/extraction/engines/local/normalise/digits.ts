// Digits and separators of other scripts read as ASCII, one UTF-16 unit for one (offsets stay those of the text):
// Arabic-Indic `١٢٣٫٤٥`, Persian `۱۲۳`, Devanagari `१२३`, Bengali, Thai `๑๒๓`, full-width `１２３，４５６` and
// full-width currency signs (`￥`, `￦`, `＄`, `￡`) in CJK text. Which characters those are comes from ICU
// (locale/numbering.ts).
import { figureFolds } from '../locale/numbering.js';
import { lazily } from '../locale/locales.js';

/** The Arabic comma (`١٢٬٥٠٠، ٣٠٠`): punctuation, not a figure separator ICU lists, but it parts figures as `,` does. */
const ARABIC_COMMA: [string, string] = ['\u060c', ','];

const folds = lazily(() => {
  const map = new Map([...figureFolds(), ARABIC_COMMA]);
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return { map, needs: new RegExp(`[${[...map.keys()].map(escape).join('')}]`) };
});

/** `s` with every digit and figure separator of another script as its ASCII one, the same length as `s`. */
export function foldDigits(s: string): string {
  const { map, needs } = folds();
  if (!needs.test(s)) return s;
  let out = '';
  for (const c of s) out += c.length === 1 ? map.get(c) ?? c : c;
  return out;
}
