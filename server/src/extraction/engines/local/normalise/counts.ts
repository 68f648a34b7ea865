// Whole numbers written as digits or words ("thirty (30)", "three", "45").

const WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};

/** A regex source matching a count: digits, a number word (`twenty-one`), optionally followed by `(21)`. */
export const COUNT_SOURCE = String.raw`(?:\d+|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ]?)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a))(?:\s*\(\d+\))?`;

/** The value of a count written by COUNT_SOURCE; a parenthesised figure wins over the words. */
export function parseCount(s: string): number | null {
  const paren = /\((\d+)\)/.exec(s);
  if (paren) return Number(paren[1]);
  const digits = /\d+/.exec(s);
  if (digits) return Number(digits[0]);
  let total = 0, seen = false;
  for (const w of s.toLowerCase().split(/[\s-]+/)) {
    if (w === 'a') { total += 1; seen = true; continue; }
    const n = WORDS[w];
    if (n !== undefined) { total = n === 100 ? Math.max(1, total) * 100 : total + n; seen = true; }
  }
  return seen ? total : null;
}
