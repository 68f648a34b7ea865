import type { RequestHandler } from 'express';
import { ApiError } from './api-error.js';
import { bodyLimitFor, hasRequestBody } from './json-body.js';

/** What a caller refused for want of room is told to wait: bodies in flight are read and answered within seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Bounds the request bodies a process holds at once (HTTP_MAX_BODY_BYTES_IN_FLIGHT), not only each one: a body is
 * counted from before it is read until its answer is sent, at its Content-Length (or at its route's limit when it is
 * chunked, its length unknown), and one that would take the total past the budget is answered 503
 * `service_unavailable` with `Retry-After` before a byte of it is read. A body is held several times over while it is
 * parsed and decoded, so 100 bodies of 13 MB at once took the process to 2 GB. One body always passes when none is in
 * flight, so a budget below the route's limit never refuses every request.
 */
export function bodyBudget(maxBytes: number): RequestHandler {
  let inFlight = 0;
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasRequestBody(req)) return next();
    const limit = bodyLimitFor(req.path);
    const declared = req.headers['content-length'];
    // Over its route's limit it is refused 413 unread (json-body.ts, multipart-body.ts): counted at the limit.
    const bytes = declared !== undefined && req.headers['transfer-encoding'] === undefined ? Math.min(Number(declared) || 0, limit) : limit;
    if (inFlight > 0 && inFlight + bytes > maxBytes) {
      throw new ApiError('service_unavailable', `The service is reading as many request bodies as it may hold at once; retry in ${RETRY_AFTER_SECONDS} s.`, null, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    inFlight += bytes;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight -= bytes;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
