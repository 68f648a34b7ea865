import type { RequestHandler } from 'express';
import { openapiDocument } from '../contract/documents.js';
import type { ContractRoute } from '../contract/routes.js';
import { ApiError } from './api-error.js';

/**
 * The deepest nesting a JSON body may have. The deepest legitimate body (a batch item's custom schema at its 6
 * levels, each level `properties/name` or `anyOf/i`) is about 20 levels; recursive code further on (Ajv, digests,
 * JSON.stringify) must never meet one deep enough to overflow the stack (that was a 500).
 */
export const MAX_JSON_DEPTH = 64;
const MAX_ISSUES = 20;

interface Issue { path: string; message: string }

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain U+0000 (NUL)';
const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks a parsed JSON body without recursion: nesting depth, and U+0000 in any string or member name (PostgreSQL
 * text cannot hold it, so a stored field holding one was a 500; no document needs it). Answers the problems found.
 */
export function inspectJson(body: unknown, root = '/body'): Issue[] {
  const issues: Issue[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: root, depth: 0 }];
  while (stack.length && issues.length < MAX_ISSUES) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) issues.push({ path, message: NUL_MESSAGE });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      issues.push({ path, message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}/${i}`, depth: depth + 1 });
    } else {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        const p = `${path}/${escapePointer(k)}`;
        if (k.includes(NUL)) issues.push({ path: p, message: `member name ${NUL_MESSAGE}` });
        stack.push({ value: v, path: p, depth: depth + 1 });
      }
    }
  }
  return issues;
}

export function refuseIssues(issues: Issue[]): ApiError {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new ApiError('invalid_request', `${first.path} ${first.message}${more}`, { errors: issues });
}

const METHOD_KEYS: Record<string, string> = { GET: 'get', HEAD: 'get', POST: 'post', PUT: 'put', DELETE: 'delete', PATCH: 'patch' };
const DECIMAL_INTEGER = /^-?\d{1,15}$/;

interface ParameterSpec { name: string; in: string; schema?: { type?: string } }

/**
 * Path and query parameters the operation declares may not hold U+0000 either (a key id or cursor with one reached
 * PostgreSQL and was a 500), and an integer query parameter must be written as decimal digits: Ajv's type coercion
 * turns `1e309` into Infinity and lets it through `minimum`/`maximum` (a 500 from the database layer), and takes
 * `0x10` for 16. Undeclared query parameters are ignored, as the contract validator does.
 */
export const paramGuard: RequestHandler = (req, res, next) => {
  const route = res.locals.route as ContractRoute | undefined;
  if (!route) return next();
  const op = openapiDocument.paths[route.template]?.[METHOD_KEYS[req.method] ?? ''] as { parameters?: ParameterSpec[] } | undefined;
  const issues: Issue[] = [];
  let path = req.path;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // A malformed escape is the contract validator's to refuse.
  }
  if (path.includes(NUL)) issues.push({ path: '/path', message: NUL_MESSAGE });
  for (const p of op?.parameters ?? []) {
    if (p.in !== 'query') continue;
    const values = [(req.query as Record<string, unknown>)[p.name]].flat().filter((x): x is string => typeof x === 'string');
    if (values.some((x) => x.includes(NUL))) issues.push({ path: `/query/${p.name}`, message: NUL_MESSAGE });
    else if (p.schema?.type === 'integer' && values.some((x) => !DECIMAL_INTEGER.test(x))) issues.push({ path: `/query/${p.name}`, message: 'must be an integer in decimal digits' });
  }
  if (issues.length) throw refuseIssues(issues);
  next();
};
