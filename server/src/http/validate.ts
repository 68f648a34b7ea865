import * as OpenApiValidator from 'express-openapi-validator';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { openapiDocument } from '../contract/documents.js';

/**
 * Every request is checked against the compiled contract (all errors, not just the first); with
 * `validateResponses`, every answer too, so a handler that drifts from the contract fails the suite.
 *
 * HEAD is GET without the body (RFC 9110 §9.3.2): the contract declares only GET, and the validator knows no HEAD
 * operation (it refused every HEAD, a 500). So a HEAD request is checked as the GET it stands for, and is HEAD again
 * before any handler or log line sees it: Express answers it through the GET handler and Node leaves the body out.
 */
export function contractValidator(validateResponses: boolean): Array<RequestHandler | ErrorRequestHandler> {
  const validator = OpenApiValidator.middleware({
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
    // A multipart body is read by multipartBody (one file, within the file limit) before this runs; the validator's own
    // reader (multer, without limits) must not read it again.
    fileUploader: false,
    // The webhook is verified on its raw bytes by its signature, not parsed here.
    ignorePaths: /^\/v1\/billing\/webhook$/,
  }) as unknown as RequestHandler[];
  return [headAsGet, ...validator, headAgain, headAgainOnError];
}

const HEAD_AS_GET = Symbol('head as get');
type Marked = { [HEAD_AS_GET]?: true };

const headAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === 'HEAD') {
    req.method = 'GET';
    (req as Marked)[HEAD_AS_GET] = true;
  }
  next();
};

function restore(req: Marked & { method: string }): void {
  if (req[HEAD_AS_GET]) {
    req.method = 'HEAD';
    delete req[HEAD_AS_GET];
  }
}

const headAgain: RequestHandler = (req, _res, next) => {
  restore(req);
  next();
};

/** A refusal by the validator (400, 415, ...) is logged and answered as the HEAD it was. */
const headAgainOnError: ErrorRequestHandler = (err, req, _res, next) => {
  restore(req);
  next(err);
};
