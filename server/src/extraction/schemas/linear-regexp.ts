import { RE2JS } from 're2js';

/** A caller's pattern that RE2 cannot express (a backreference, a lookaround): it cannot be matched in linear time. */
export class UnsupportedPattern extends Error {}

const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, s: RE2JS.DOTALL, m: RE2JS.MULTILINE };

/**
 * Compiles a JSON Schema `pattern` with RE2 (re2js, pure JavaScript): matching takes time linear in the text for every
 * pattern it accepts, so no pattern a caller sends can hold the event loop, and no wall-clock budget can fail a valid
 * request on a busy machine. JSON Schema patterns are searches (unanchored), as `find()` is.
 */
export function compileLinear(pattern: string, flags = ''): RE2JS {
  let bits = 0;
  for (const f of flags) bits |= FLAGS[f] ?? 0; // `u` and `g` change nothing here
  try {
    return RE2JS.compile(pattern, bits);
  } catch (e) {
    throw new UnsupportedPattern(`cannot be matched in linear time (${e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : 'unsupported syntax'}): backreferences and lookarounds are not accepted`);
  }
}

/** Ajv's `code.regExp`: every `pattern` of an answer schema is tested with RE2. */
export function linearRegExp(pattern: string, flags: string): { test(s: string): boolean; toString(): string } {
  const re = compileLinear(pattern, flags);
  // Ajv keys its compiled patterns by toString(): it must name the pattern, or every pattern would share one entry.
  return { test: (s) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
}
linearRegExp.code = 'linearRegExp';
