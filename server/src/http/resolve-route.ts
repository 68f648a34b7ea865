import type { RequestHandler } from 'express';
import { lookupRoute } from '../contract/routes.js';
import { ApiError } from './api-error.js';

/** Maps the request to the contract's operation: unknown paths are 404, known paths with another method 405. */
export const resolveRoute: RequestHandler = (req, res, next) => {
  const found = lookupRoute(req.method, req.path);
  if (found.kind === 'not_found') throw new ApiError('not_found', `No route ${req.method} ${req.path}.`);
  if (found.kind === 'method_not_allowed') {
    throw new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}.`, null, { Allow: found.allow.join(', ') });
  }
  res.locals.route = found.route;
  next();
};
