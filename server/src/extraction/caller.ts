import type { Response } from 'express';
import { principalOf } from '../auth/authenticate.js';
import { ApiError } from '../http/api-error.js';

/** Who an extraction runs as: an account and one of its keys (the key that called, or the one the dashboard chose). */
export interface Caller {
  accountId: string;
  apiKeyId: string;
  /** What a key revoked before the answer leaves is answered with. */
  revoked: () => ApiError;
}

/** The caller of `/v1/extract/*` and `/v1/classify`: the API key it authenticated with; a revoked key is `401 invalid_api_key`. */
export function apiKeyCaller(res: Response): Caller {
  const principal = principalOf(res);
  if (principal.via !== 'api_key') throw new ApiError('unauthorized');
  return { accountId: principal.accountId, apiKeyId: principal.apiKeyId, revoked: () => new ApiError('invalid_api_key') };
}
