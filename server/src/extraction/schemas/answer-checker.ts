import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createContext, Script } from 'node:vm';
import type { JsonSchema } from '../engines/engine.js';
import { ApiError } from '../../http/api-error.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop in some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export interface SchemaIssue {
  path: string;
  message: string;
}

export type CheckResult = { ok: true } | { ok: false; issues: SchemaIssue[] };

/** The longest a caller's `pattern` may run on one value before the extraction is refused. */
export const PATTERN_BUDGET_MS = 100;
const sandbox = createContext({});
const runTest = new Script('re.test(s)');

/**
 * Ajv's regular expressions, each test bounded in time: a caller's `pattern` runs on text taken from the document,
 * and JavaScript's backtracking engine can take exponential (or high polynomial) time on a pattern that the static
 * checks in custom-schema.ts did not recognise. The vm timeout interrupts the match; the extraction is then refused
 * as 400 invalid_schema instead of holding the event loop (and every other request) for minutes.
 */
function boundedRegExp(pattern: string, flags: string): { test(s: string): boolean; toString(): string } {
  const re = new RegExp(pattern, flags);
  return {
    // Ajv keys its compiled patterns by this: it must name the pattern (else every pattern would share one entry).
    toString: () => re.toString(),
    test(s: string): boolean {
      try {
        sandbox.re = re;
        sandbox.s = s;
        return runTest.runInContext(sandbox, { timeout: PATTERN_BUDGET_MS }) as boolean;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
          throw new ApiError('invalid_schema', `The schema cannot be used: the pattern ${JSON.stringify(pattern.slice(0, 60))} takes too long to match; simplify it.`, { errors: [{ path: '/', message: 'a pattern took too long to match' }] });
        }
        throw e;
      } finally {
        sandbox.re = undefined;
        sandbox.s = undefined;
      }
    },
  };
}
boundedRegExp.code = 'new RegExp';

/** Ajv for answers and callers' schemas: draft 2020-12, every error, known formats only, no remote references. */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, strictTuples: false, validateFormats: true, loadSchema: undefined, code: { regExp: boundedRegExp } });
  addFormats(ajv);
  return ajv;
}

const ajv = createAjv();
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

export function toIssues(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'is invalid' }));
}

/**
 * Compiles a schema once per schema object (throws Ajv's error for one that cannot be compiled). Ajv's own cache
 * would keep every caller's schema forever, so the function lives only as long as the schema object does.
 */
export function compileAnswerSchema(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Checks an answer against the schema it must meet. */
export function checkAnswer(schema: JsonSchema, data: unknown): CheckResult {
  const validate = compileAnswerSchema(schema);
  return validate(data) ? { ok: true } : { ok: false, issues: toIssues(validate.errors) };
}
