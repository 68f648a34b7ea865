import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error.js';
import { inspectJson, refuseIssues } from './input-guard.js';
import { receivedFile, takesForm } from './multipart-body.js';
import { normaliseFileMediaTypes } from './file-media-types.js';

export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;
/** Extraction routes take a file of up to 10 MB in base64 (13.4 MB) with the rest of the request. */
export const EXTRACTION_BODY_LIMIT_BYTES = 15 * 1024 * 1024;

const parseJson = express.json({ limit: BODY_LIMIT_BYTES, strict: true, type: () => true });
const parseExtractionJson = express.json({ limit: EXTRACTION_BODY_LIMIT_BYTES, strict: true, type: () => true });

/** Routes that take a document, and so a file in base64: the extraction routes, classification and the dashboard's extraction with a key. */
export const takesDocument = (path: string): boolean => path.startsWith('/v1/extract/') || path === '/v1/classify' || /^\/v1\/keys\/[^/]+\/extract$/.test(path);

/** The body limit of a path: raised only on the routes that take a document, and job creation. */
export const bodyLimitFor = (path: string): number => (takesDocument(path) || path === '/v1/jobs' || path === '/v1/jobs/batch' ? EXTRACTION_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES);
const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** Whether the request carries a body at all (a length above zero, or a chunked one). */
export function hasRequestBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a JSON body (at most 5 MB, 15 MB on extraction routes) for routes that take one. A body of another media type is 415; no body at all is
 * read as `{}` so the contract decides which members are required. A body nested deeper than MAX_JSON_DEPTH or
 * holding U+0000 is 400 invalid_request (see input-guard.ts).
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') return next();
  // Already read as a file form (multipart-body.ts).
  if (receivedFile(req)) return next();
  const length = req.headers['content-length'];
  if (!hasRequestBody(req)) {
    req.body = {};
    // An empty body is an empty JSON object; say so for the contract validator, which checks the media type.
    req.headers['content-type'] = 'application/json';
    return next();
  }
  const type = req.headers['content-type'];
  if (!type || !/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(type)) {
    // A route that also takes a file form says so: its body is either.
    throw new ApiError('unsupported_media_type', takesForm(req.path) ? 'The request body must be application/json or multipart/form-data.' : undefined);
  }
  const limit = bodyLimitFor(req.path);
  if (length !== undefined && Number(length) > limit) {
    // Refuse before reading a byte of it.
    throw new ApiError('payload_too_large', `The request body is over ${megabytes(limit)}.`, { limit });
  }
  (limit === BODY_LIMIT_BYTES ? parseJson : parseExtractionJson)(req, res, (err?: unknown) => {
    if (err) return next(err);
    // Too deep, or a NUL in a string: 400 before any handler (or the validator's recursion) sees it.
    const issues = inspectJson(req.body);
    if (issues.length) return next(refuseIssues(issues));
    normaliseFileMediaTypes(req.body);
    next();
  });
};
