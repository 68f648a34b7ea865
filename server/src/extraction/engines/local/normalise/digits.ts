// Digits and separators of other scripts read as ASCII, one UTF-16 unit for one (offsets stay those of the text):
// Arabic-Indic `١٢٣٫٤٥`, Persian `۱۲۳`, Devanagari `१२३`, Bengali, Thai `๑๒๓`, full-width `１２３，４５６` and
// full-width currency signs (`￥`, `￦`, `＄`, `￡`) in CJK text.

const ZEROS = [0x0660, 0x06f0, 0x0966, 0x09e6, 0x0e50, 0x0ed0, 0xff10, 0x1040];
const SINGLE: Record<string, string> = {
  '\u066b': '.', '\u066c': ',', '\u060c': ',', // Arabic decimal separator, thousands separator, comma
  '\uff0c': ',', '\uff0e': '.', '\uff1a': ':', '\uff0f': '/', '\uff0d': '-', '\uff05': '%', '\uff08': '(', '\uff09': ')',
  '\uffe5': '¥', '\uffe6': '₩', '\uff04': '$', '\uffe1': '£', '\u3000': ' ',
};

const NEEDS_FOLD = /[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef\u0e50-\u0e59\u0ed0-\u0ed9\uff10-\uff19\u1040-\u1049\u066b\u066c\u060c\uff0c\uff0e\uff1a\uff0f\uff0d\uff05\uff08\uff09\uffe5\uffe6\uff04\uffe1\u3000]/;

/** `s` with every digit and figure separator of another script as its ASCII one, the same length as `s`. */
export function foldDigits(s: string): string {
  if (!NEEDS_FOLD.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const zero = ZEROS.find((z) => c >= z && c <= z + 9);
    out += zero !== undefined ? String(c - zero) : SINGLE[s[i]!] ?? s[i]!;
  }
  return out;
}
