import type { ErrorRequestHandler } from 'express';
import { ApiError } from './api-error.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { MAX_FILE_BYTES } from '../documents/limits.js';
import { noteAnsweredError } from './logger.js';
import { describeJsonError } from './json-syntax.js';
import { readableIssues } from './readable-issues.js';

const TEXT_LIMIT = 200_000;

interface ValidatorIssue { path?: string; message?: string; errorCode?: string }
interface HttpLikeError { status?: number; statusCode?: number; type?: string; errors?: ValidatorIssue[]; message?: string; limit?: number; expose?: boolean; body?: unknown }

/**
 * The one place a failure becomes an HTTP answer. Nothing else writes an error body. `body` is the request's parsed
 * body, when there is one: a refusal can then say what to send instead (readable-issues.ts).
 */
export function toApiError(err: unknown, body?: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = (err ?? {}) as HttpLikeError;
  // body-parser: where the JSON goes wrong (body-parser keeps the raw text on the error; it is not echoed).
  if (e.type === 'entity.parse.failed') {
    return new ApiError('malformed_json', typeof e.body === 'string' ? `The request body is not valid JSON: ${describeJsonError(e.body, e.message)}.` : undefined);
  }
  if (e.type === 'entity.too.large') {
    const limit = e.limit ?? 5 * 1024 * 1024;
    return new ApiError('payload_too_large', `The request body is over ${limit / 1024 / 1024} MB.`, { limit });
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError('unsupported_media_type');
  if (e.type === 'request.aborted') return new ApiError('invalid_request', 'The request body was not received in full.', { errors: [] });
  // Down, or every connection busy: a moment later it may answer, as the 503 of a database not ready yet says.
  if (isDatabaseUnavailable(err)) return new ApiError('service_unavailable', undefined, null, { 'Retry-After': '5' });
  // Any other body-parser refusal (http-errors with `expose`, no validator issues): a body that cannot be decoded
  // (a broken gzip or deflate stream) was a 500.
  if (e.expose === true && !Array.isArray(e.errors)) {
    const s = e.status ?? e.statusCode;
    if (s === 400) return new ApiError('malformed_json', 'The request body could not be decoded.');
    if (s === 413) return new ApiError('payload_too_large', 'The request body is over 5 MB.', { limit: 5 * 1024 * 1024 });
    if (s === 415) return new ApiError('unsupported_media_type');
  }
  // The Stripe SDK's errors (after its own retries): the payment provider failed us.
  if (typeof e.type === 'string' && e.type.startsWith('Stripe')) return new ApiError('upstream_error', 'The payment provider failed.');
  // express-openapi-validator
  const status = e.status ?? e.statusCode;
  if (Array.isArray(e.errors) && typeof status === 'number') {
    const issues = readableIssues(e.errors.map((i) => ({ path: normalisePath(i.path), message: readableMessage(i.message) })), body);
    if (status === 400) {
      if (issues.some((i) => /\/document\/text$/.test(i.path) && /longer than|more than|maxLength/i.test(i.message))) {
        return new ApiError('payload_too_large', `document.text is over ${TEXT_LIMIT.toLocaleString('en-US')} characters.`, { limit: TEXT_LIMIT });
      }
      if (issues.some((i) => /\/document\/content$/.test(i.path) && /longer than|more than|maxLength/i.test(i.message))) {
        return new ApiError('payload_too_large', `The file in document.content is over ${MAX_FILE_BYTES.toLocaleString('en-US')} bytes.`, { limit: MAX_FILE_BYTES });
      }
      return new ApiError('invalid_request', summarise(issues), { errors: issues });
    }
    if (status === 415) return new ApiError('unsupported_media_type');
    if (status === 404) return new ApiError('not_found');
    if (status === 413) return new ApiError('payload_too_large', undefined, { limit: 5 * 1024 * 1024 });
    if (status === 401 || status === 403) return new ApiError('unauthorized');
  }
  return new ApiError('internal_error');
}

/**
 * Ajv's message, except where it says nothing to a caller: the contract's only `not: {}` is a closed object's
 * `unevaluatedProperties` (TypeSpec's `...Record<never>`), refusing a member the object does not take.
 */
function readableMessage(message: string | undefined): string {
  if (!message) return 'is invalid';
  return message === 'must NOT be valid' ? 'is not a member this object takes' : message;
}

function normalisePath(path: string | undefined): string {
  if (!path) return '/';
  // The validator writes `/body/items/0/document/text` or `.body.document.text`; answer the slash form.
  return path.startsWith('/') ? path : `/${path.replace(/^\./, '').replace(/\./g, '/')}`;
}

function summarise(issues: { path: string; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'The request does not match the API contract.';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first.path} ${first.message}${more}`;
}

/**
 * What a log line may say about an unexpected error: its type, code, the first line of its message and its stack
 * frames. Never the rest: Prisma's messages print the arguments of the failed call (document fields, key names,
 * extraction quotes), which must not reach the logs.
 */
function loggable(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const firstLine = err.message.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 12).map((l) => l.trim());
  const code = (err as { code?: unknown }).code;
  return { type: err.name, ...(typeof code === 'string' ? { code } : {}), message: firstLine.slice(0, 200), stack: frames };
}

/**
 * Refusals the service means to make: every 4xx, and the 503s of a busy engine, reader or provider, a database down
 * or out of connections, and billing not configured. Under load there are thousands; each is the request's one log
 * line, without a stack.
 */
const EXPECTED_5XX = new Set(['service_unavailable', 'billing_not_configured']);

/** A driver's error code (ECONNREFUSED, 57P01...) or the error's type: what made the database unavailable. */
function causeOf(err: unknown): string | undefined {
  if (err instanceof ApiError || !(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err.name;
}

export const errorMapper: ErrorRequestHandler = (err, req, res, _next) => {
  const apiError = toApiError(err, req.body);
  const expected = apiError.status < 500 || EXPECTED_5XX.has(apiError.code);
  // The request's own log line (logger.ts) names the code; only an unexpected failure gets a line with its stack.
  noteAnsweredError(res, { code: apiError.code, expected, ...(expected && apiError.status >= 500 ? { cause: causeOf(err) } : {}) });
  if (!expected) req.log?.error({ error: loggable(err) }, 'request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
  if (apiError.code === 'invalid_api_key') {
    res.status(401).json({ error: 'invalid_api_key' });
    return;
  }
  res.status(apiError.status).json({ error: { code: apiError.code, message: apiError.message, details: apiError.details } });
};
