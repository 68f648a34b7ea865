import { openapiDocument } from '../contract/documents.js';
import { ApiError } from '../http/api-error.js';

type Schema = { properties?: Record<string, unknown>; anyOf?: Array<{ $ref: string }> };

/** The members the contract declares for a schema (of every alternative, for a union). */
function membersOf(name: string): Set<string> {
  const schemas = openapiDocument.components.schemas as Record<string, Schema>;
  const schema = schemas[name]!;
  const parts = schema.anyOf ? schema.anyOf.map((r) => schemas[r.$ref.split('/').pop()!]!) : [schema];
  return new Set(parts.flatMap((p) => Object.keys(p.properties ?? {})));
}

const JOB = membersOf('CreateJobRequest');
const JOB_BATCH = membersOf('CreateJobBatchRequest');
const JOB_BATCH_ITEM = membersOf('JobBatchItem');

/**
 * Refuses (400, each one named) members a job body or a job batch item does not have, as `/v1/extract/batch` refuses
 * an item's own `model`: accepted, they were silently ignored (an item's `model`, `minConfidence` or `schema` applied
 * to nothing). The contract's own lists of members (generated/openapi.json), so they stay in step with it.
 */
export function refuseUnknownMembers(body: unknown, batch: boolean): void {
  if (!body || typeof body !== 'object') return;
  const errors: Array<{ path: string; message: string }> = [];
  const known = batch ? JOB_BATCH : JOB;
  for (const member of Object.keys(body)) {
    if (!known.has(member)) errors.push({ path: `/body/${member}`, message: `is not a member of a job ${batch ? 'batch ' : ''}request` });
  }
  const items = batch ? (body as { items?: unknown }).items : undefined;
  if (Array.isArray(items)) {
    items.forEach((item, i) => {
      if (!item || typeof item !== 'object') return;
      for (const member of Object.keys(item)) {
        if (!JOB_BATCH_ITEM.has(member)) {
          const shared = JOB_BATCH.has(member) ? `: a batch names its ${member} once for all its items, beside items` : '';
          errors.push({ path: `/body/items/${i}/${member}`, message: `is not a member of a job batch item (document and metadata only)${shared}` });
        }
      }
    });
  }
  if (errors.length) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw new ApiError('invalid_request', `${errors[0]!.path} ${errors[0]!.message}${more}`, { errors });
  }
}
