import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import type { Documents } from '../documents/documents.js';
import { ApiError } from '../http/api-error.js';
import { toApiError } from '../http/error-mapper.js';
import type { ExtractionEngine } from './engines/engine.js';
import { assertVendorRenewal } from './renewal/renewal-store.js';
import { reservationForItem, runItem, type ItemDeps, type ItemInput } from './run-item.js';
import { dataSchemaFor } from './schemas/contract-schemas.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';
import { optionsOf } from './single-input.js';

type Schemas = components['schemas'];
type Result = Schemas['BatchItemResult'];

interface PreparedBatch {
  /** Per request item: what to run and the HEU reserved for it, or why it already failed. */
  items: Array<{ id: string; input: ItemInput; heu: number } | { id: string; failure: ApiError }>;
  /** The sum of the items' worst cases: the whole of it must fit in the bucket. */
  estimate: number;
}

const failure = (id: string, e: unknown): Result => {
  const err = toApiError(e);
  return { id, ok: false, error: { code: err.code, message: err.message } };
};

/**
 * Checks the batch as a whole (unique ids, no model of an item's own: else 400 for the call, before any file is
 * opened) and each item on its own (a bad one fails alone).
 */
async function prepare(prisma: PrismaClient, documents: Documents, engine: ExtractionEngine, accountId: string, body: Schemas['BatchRequest'], signal?: AbortSignal): Promise<PreparedBatch> {
  // One model serves every item of a batch (the interface document): a model named on an item would be silently
  // ignored, so it is refused, naming each such item.
  const ownModels = body.items.flatMap((item, i) => (Object.hasOwn(item, 'model') ? [{
    path: `/body/items/${i}/model`, message: 'is not a member of a batch item: a batch names one model for all its items, in model beside items',
  }] : []));
  if (ownModels.length) {
    const more = ownModels.length > 1 ? ` (and ${ownModels.length - 1} more)` : '';
    throw new ApiError('invalid_request', `${ownModels[0]!.path} ${ownModels[0]!.message}${more}`, { errors: ownModels });
  }
  const seen = new Map<string, number>();
  const duplicates: { path: string; message: string }[] = [];
  body.items.forEach((item, i) => {
    if (seen.has(item.id)) duplicates.push({ path: `/body/items/${i}/id`, message: `duplicates the id of item ${seen.get(item.id)}` });
    else seen.set(item.id, i);
  });
  if (duplicates.length) throw new ApiError('invalid_request', 'Batch item ids must be unique.', { errors: duplicates });

  let estimate = 0;
  const items: PreparedBatch['items'] = [];
  for (const [i, item] of body.items.entries()) {
    try {
      let input: ItemInput;
      if ('schema' in item) {
        const schema = prepareCustomSchema(item.schema);
        const prepared = await documents.prepare(item.document, { accountId, signal }, `/body/items/${i}/document`);
        input = { task: { kind: 'custom', schema: item.schema as Record<string, unknown> }, schema, document: item.document, prepared, options: optionsOf(body) };
      } else {
        if (item.kind === 'renewal') await assertVendorRenewal(prisma, accountId, item.document.vendorRenewalId);
        const prepared = await documents.prepare(item.document, { accountId, signal }, `/body/items/${i}/document`);
        input = { task: { kind: item.kind }, schema: dataSchemaFor(item.kind), document: item.document, prepared, options: optionsOf(body) };
      }
      const { wanted: heu } = reservationForItem(engine, input);
      estimate += heu;
      items.push({ id: item.id, input, heu });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      items.push({ id: item.id, failure: e });
    }
  }
  return { items, estimate };
}

/**
 * Runs the items `concurrency` at a time, each within the HEU reserved for it; results in request order, usage summed
 * over the successes. After `deadlineMs` the items still running are stopped and those not started are not begun:
 * they fail alone with `upstream_timeout` (not charged) and the batch answers with the rest.
 */
async function run(batch: PreparedBatch, deps: ItemDeps, concurrency: number, deadlineMs: number, signal: AbortSignal): Promise<Schemas['BatchExtraction']> {
  const deadline = AbortSignal.timeout(deadlineMs);
  const itemSignal = AbortSignal.any([signal, deadline]);
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
      if (deadline.aborted) {
        results[index] = failure(item.id, new ApiError('upstream_timeout', 'The batch ran out of time before this item.'));
        continue;
      }
      try {
        const r = await runItem(deps, item.input, itemSignal, item.heu);
        results[index] = { id: item.id, ok: true, data: r.data as Record<string, unknown>, model: r.model, usage: r.usage, source: r.source, evidence: r.evidence, withheld: r.withheld, ...(r.document ? { document: r.document } : {}) };
      } catch (e) {
        if (signal.aborted) throw signal.reason;
        results[index] = failure(item.id, deadline.aborted ? new ApiError('upstream_timeout', 'The batch ran out of time during this item.') : e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.items.length) }, worker));
  const usage: Schemas['Usage'] = { inputTokens: 0, outputTokens: 0, heu: 0 };
  for (const r of results) {
    if (!r.ok) continue;
    usage.inputTokens += r.usage.inputTokens;
    usage.outputTokens += r.usage.outputTokens;
    usage.heu += r.usage.heu;
    if (r.usage.readingHeu !== undefined) usage.readingHeu = (usage.readingHeu ?? 0) + r.usage.readingHeu;
    // Cache members only when an item reported them (the offline engine has no cache).
    if (r.usage.cacheReadInputTokens !== undefined) usage.cacheReadInputTokens = (usage.cacheReadInputTokens ?? 0) + r.usage.cacheReadInputTokens;
    if (r.usage.cacheCreationInputTokens !== undefined) usage.cacheCreationInputTokens = (usage.cacheCreationInputTokens ?? 0) + r.usage.cacheCreationInputTokens;
  }
  return { results, usage };
}

export const runBatch = { prepare, run };
