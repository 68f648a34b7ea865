import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../engines/engine.js';
import { linearRegExp } from './linear-regexp.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop in some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export interface SchemaIssue {
  path: string;
  message: string;
}

export type CheckResult = { ok: true } | { ok: false; issues: SchemaIssue[] };


/** Ajv for answers and callers' schemas: draft 2020-12, every error, known formats only, no remote references. */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, strictTuples: false, validateFormats: true, loadSchema: undefined, code: { regExp: linearRegExp } });
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
