import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** What jsonc-parser's error codes mean, in the words a caller reads. */
const WHAT: Record<string, string> = {
  InvalidSymbol: 'a character that cannot start a JSON value',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name (in double quotes) was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "a ':' was expected after the property name",
  CommaExpected: "a ',' was expected",
  CloseBraceExpected: "a closing '}' was expected",
  CloseBracketExpected: "a closing ']' was expected",
  EndOfFileExpected: 'more text after the JSON value',
  InvalidCommentToken: 'a comment (JSON has none)',
  UnexpectedEndOfComment: 'a comment (JSON has none)',
  UnexpectedEndOfString: 'a string that does not end on its line',
  UnexpectedEndOfNumber: 'a malformed number',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'an escape that JSON does not have',
  InvalidCharacter: 'a control character inside a string (escape it)',
};

/**
 * Where a body that is not JSON goes wrong, as "<what> at line L, column C (character N)", for the 400
 * `malformed_json` message. V8's own message names the place when it can ("... in JSON at position 26"); when it
 * names only the token ("Unexpected token '}', ... is not valid JSON"), jsonc-parser (strict: no comments, no
 * trailing commas) finds it. The body's text is never repeated in the answer.
 */
export function describeJsonError(raw: string, v8Message: string | undefined): string {
  const at = /^(.*?) in JSON at position (\d+)/.exec(v8Message ?? '');
  if (at) return `${lowerFirst(at[1]!)} ${place(raw, Number(at[2]))}`;
  if (/Unexpected end of JSON input/.test(v8Message ?? '')) return `the body ends too early ${place(raw, raw.length)}`;
  const errors: ParseError[] = [];
  parse(raw, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return 'it cannot be parsed';
  return `${WHAT[printParseErrorCode(first.error)] ?? 'unexpected text'} ${place(raw, first.offset)}`;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** "at line 2, column 5 (character 17)", lines and columns from 1, the character offset from 0 as V8 counts it. */
function place(raw: string, offset: number): string {
  const before = raw.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `at line ${line}, column ${column} (character ${offset})`;
}
