import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { toApiError } from '../http/error-mapper.js';
import { estimateHeu } from '../metering/heu.js';
import { assertVendorRenewal } from './renewal/renewal-store.js';
import { runItem, type ItemDeps, type ItemInput } from './run-item.js';
import { dataSchemaFor } from './schemas/contract-schemas.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';

type Schemas = components['schemas'];
type Result = Schemas['BatchItemResult'];

interface PreparedBatch {
  /** Per request item: what to run, or why it already failed. */
  items: Array<{ id: string; input: ItemInput } | { id: string; failure: ApiError }>;
  estimate: number;
}

const failure = (id: string, e: unknown): Result => {
  const err = toApiError(e);
  return { id, ok: false, error: { code: err.code, message: err.message } };
};

/** Checks the batch as a whole (unique ids: else 400 for the call) and each item on its own (a bad one fails alone). */
async function prepare(prisma: PrismaClient, accountId: string, body: Schemas['BatchRequest']): Promise<PreparedBatch> {
  const seen = new Map<string, number>();
  const duplicates: { path: string; message: string }[] = [];
  body.items.forEach((item, i) => {
    if (seen.has(item.id)) duplicates.push({ path: `/body/items/${i}/id`, message: `duplicates the id of item ${seen.get(item.id)}` });
    else seen.set(item.id, i);
  });
  if (duplicates.length) throw new ApiError('invalid_request', 'Batch item ids must be unique.', { errors: duplicates });

  let estimate = 0;
  const items: PreparedBatch['items'] = [];
  for (const item of body.items) {
    try {
      let input: ItemInput;
      if ('schema' in item) {
        input = { task: { kind: 'custom', schema: item.schema as Record<string, unknown> }, schema: prepareCustomSchema(item.schema), document: item.document };
      } else {
        if (item.kind === 'renewal') await assertVendorRenewal(prisma, accountId, item.document.vendorRenewalId);
        input = { task: { kind: item.kind }, schema: dataSchemaFor(item.kind), document: item.document };
      }
      estimate += estimateHeu(item.document.text.length, input.schema);
      items.push({ id: item.id, input });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      items.push({ id: item.id, failure: e });
    }
  }
  return { items, estimate };
}

/** Runs the items `concurrency` at a time; results in request order, usage summed over the successes. */
async function run(batch: PreparedBatch, deps: ItemDeps, concurrency: number, signal: AbortSignal): Promise<Schemas['BatchExtraction']> {
  const results: Result[] = new Array(batch.items.length);
  let next = 0;
  const worker = async () => {
    while (next < batch.items.length) {
      const index = next++;
      const item = batch.items[index]!;
      if ('failure' in item) {
        results[index] = failure(item.id, item.failure);
        continue;
      }
      try {
        const r = await runItem(deps, item.input, signal);
        results[index] = { id: item.id, ok: true, data: r.data as Record<string, unknown>, model: r.model, usage: r.usage, ...(r.document ? { document: r.document } : {}) };
      } catch (e) {
        if (signal.aborted) throw signal.reason;
        results[index] = failure(item.id, e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.items.length) }, worker));
  const usage = { inputTokens: 0, outputTokens: 0, heu: 0 };
  for (const r of results) {
    if (r.ok) {
      usage.inputTokens += r.usage.inputTokens;
      usage.outputTokens += r.usage.outputTokens;
      usage.heu += r.usage.heu;
    }
  }
  return { results, usage };
}

export const runBatch = { prepare, run };
