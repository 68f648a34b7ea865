import type { components } from '../../../generated/openapi.js';

export type ErrorCode = components['schemas']['ErrorCode'];

const STATUS: Record<ErrorCode, number> = {
  malformed_json: 400,
  invalid_request: 400,
  invalid_schema: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  plan_limit_exceeded: 402,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_reused: 409,
  already_subscribed: 409,
  job_not_cancellable: 409,
  webhook_endpoint_disabled: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  upstream_error: 502,
  upstream_rejected: 502,
  output_too_large: 422,
  billing_not_configured: 503,
  service_unavailable: 503,
  upstream_timeout: 504,
  document_type_mismatch: 400,
  document_encrypted: 422,
  document_unreadable: 422,
  request_header_too_large: 431,
  request_timeout: 408,
};

const MESSAGES: Record<ErrorCode, string> = {
  malformed_json: 'The request body is not valid JSON.',
  invalid_request: 'The request does not match the API contract.',
  invalid_schema: 'The JSON Schema cannot be used.',
  unauthorized: 'A valid credential is required for this route.',
  invalid_api_key: 'The API key is not valid.',
  plan_limit_exceeded: "This month's HEU left cannot cover the request.",
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path.',
  idempotency_key_reused: 'This x-idempotency-key was already used with a different body.',
  already_subscribed: 'The account already has this plan.',
  job_not_cancellable: 'The job already finished: there is nothing left to cancel.',
  webhook_endpoint_disabled: 'The webhook endpoint is disabled: enable it before redelivering to it.',
  payload_too_large: 'The request is too large.',
  unsupported_media_type: 'The request body must be application/json.',
  too_many_requests: 'Too many requests.',
  internal_error: 'An internal error occurred.',
  upstream_error: 'The model provider failed.',
  upstream_rejected: 'The model provider refused the request this service built; the operator must fix its configuration.',
  output_too_large: 'The answer needs more output than this request may use; split the document or use a smaller schema.',
  billing_not_configured: 'Billing is not configured on this server.',
  service_unavailable: 'The service is temporarily unavailable.',
  upstream_timeout: 'The model provider did not answer in time.',
  document_type_mismatch: 'The bytes of document.content are not of its mediaType.',
  document_encrypted: 'The PDF is encrypted: send it without a password.',
  document_unreadable: 'The file cannot be read.',
  request_header_too_large: 'The request line and headers are too large.',
  request_timeout: 'The request was not received in time.',
};

/** A failure the client is told about: the error mapper turns it into the envelope and status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: unknown = null,
    /** Extra response headers (Retry-After, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? MESSAGES[code]);
    this.status = STATUS[code];
  }
}

