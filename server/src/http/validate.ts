import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { openapiDocument } from '../contract/documents.js';

/**
 * Every request is checked against the compiled contract (all errors, not just the first); with
 * `validateResponses`, every answer too, so a handler that drifts from the contract fails the suite.
 */
export function contractValidator(validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator resolves references in place: give it its own copy.
    apiSpec: structuredClone(openapiDocument) as never,
    // Unknown query parameters are ignored (as most HTTP APIs do, so old clients keep working when a parameter goes
    // away): refusing them would answer 400 on routes whose contract declares no 400 (/v1/account, /readyz, ...).
    validateRequests: { allErrors: true, removeAdditional: false, allowUnknownQueryParameters: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    // The document is generated from spec/ and linted (Redocly, recommended-strict) by `npm test`; checking it again
    // against the OpenAPI meta-schema cost about half a second of every start.
    validateApiSpec: false,
    validateFormats: true,
    // The webhook is verified on its raw bytes by its signature, not parsed here.
    ignorePaths: /^\/v1\/billing\/webhook$/,
  }) as unknown as RequestHandler[];
}
