import type { components } from './contract.js';

type Schemas = components['schemas'];
export type ErrorCode = Schemas['ErrorCode'];

/** Every failure the API answers, with its status, stable code, message, details and the request id to quote. */
export class DocExtractError extends Error {
  override readonly name: string = 'DocExtractError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network_error' | 'timeout',
    message: string,
    readonly details: unknown,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** 402: this month's HEU cannot cover the request. */
export class PlanLimitExceededError extends DocExtractError {
  override readonly name = 'PlanLimitExceededError';
  declare readonly details: Schemas['PlanLimitDetails'];
}

/** 429: the plan's request rate, a used-up monthly bucket, or a bucket held by requests in flight (`details.reason` says which). */
export class RateLimitError extends DocExtractError {
  override readonly name = 'RateLimitError';
  declare readonly details: Schemas['RateLimitDetails'];
}

/** 400: the request (or a custom schema) breaks the contract. */
export class InvalidRequestError extends DocExtractError {
  override readonly name = 'InvalidRequestError';
  declare readonly details: Schemas['ValidationDetails'] | null;
}

/** 401: a missing or bad credential (`invalid_api_key` for a bad or revoked key). */
export class AuthenticationError extends DocExtractError {
  override readonly name = 'AuthenticationError';
}

/** The error an answer stands for (the body is the envelope, or the bad-key body). */
export function errorFromResponse(response: Response, body: unknown): DocExtractError {
  const requestId = response.headers.get('x-request-id');
  const b = body as { error?: unknown } | null;
  if (b && b.error === 'invalid_api_key') return new AuthenticationError(response.status, 'invalid_api_key', 'The API key is not valid.', null, requestId);
  const e = (b?.error ?? {}) as { code?: ErrorCode; message?: string; details?: unknown };
  const code = e.code ?? 'internal_error';
  const message = e.message ?? `HTTP ${response.status}`;
  const details = e.details ?? null;
  switch (response.status) {
    case 400: return new InvalidRequestError(400, code, message, details, requestId);
    case 401: return new AuthenticationError(401, code, message, details, requestId);
    case 402: return new PlanLimitExceededError(402, code, message, details, requestId);
    case 429: return new RateLimitError(429, code, message, details, requestId);
    default: return new DocExtractError(response.status, code, message, details, requestId);
  }
}
