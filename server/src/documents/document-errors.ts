import { ApiError } from '../http/api-error.js';
import type { DocumentProblem } from './problems.js';

/** A file that cannot be read, as the error answer the caller gets (400, 413 with the limit, 422). */
export function documentError(p: DocumentProblem): ApiError {
  if (p.code === 'payload_too_large') return new ApiError('payload_too_large', p.message, { limit: p.limit });
  return new ApiError(p.code, p.message);
}
