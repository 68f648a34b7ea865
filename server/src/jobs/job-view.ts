import type { components } from '../../../generated/openapi.js';
import type { JobRow } from './job-repository.js';

type Schemas = components['schemas'];

/**
 * A job as the API shows it. `result` and `error` are the JSON text stored, parsed back: their members keep the
 * order the synchronous answer had (a custom schema's properties in the caller's order).
 */
export function jobView(row: JobRow): Schemas['Job'] {
  return {
    id: row.id,
    status: row.status,
    route: row.route as Schemas['JobRoute'],
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Schemas['JobMetadata']),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    ...(row.status === 'succeeded' && row.result !== null ? { result: JSON.parse(row.result) as Schemas['JobResult'] } : {}),
    ...(row.status === 'failed' && row.error !== null ? { error: JSON.parse(row.error) as Schemas['JobError'] } : {}),
  };
}
