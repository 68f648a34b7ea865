import type { RequestHandler } from 'express';
import type { ContractRoute } from '../contract/routes.js';
import { ApiError } from './api-error.js';

/** Routes that answer without the database: probes and the published contract. */
const WITHOUT_DATABASE = new Set(['/healthz', '/readyz', '/openapi.json', '/openapi.yaml']);

/** Until the schema is current (the database was down at start), every route that needs it answers 503. */
export function requireSchema(schema: { isReady(): boolean }): RequestHandler {
  return (_req, res, next) => {
    const route = res.locals.route as ContractRoute;
    if (!schema.isReady() && !WITHOUT_DATABASE.has(route.template)) {
      throw new ApiError('service_unavailable', 'The database is not available yet; try again shortly.', null, { 'Retry-After': '5' });
    }
    next();
  };
}
