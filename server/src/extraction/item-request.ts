import type { PrismaClient } from '../db/database.js';
import { Documents, type PreparedDocument } from '../documents/documents.js';
import { estimatedFacts } from '../documents/file-estimate.js';
import type { ExtractionEngine, FixedKind } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { assertVendorRenewal } from './renewal/renewal-store.js';
import type { ItemInput } from './run-item.js';
import { dataSchemaFor } from './schemas/contract-schemas.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';
import type { SingleInput } from './single-input.js';

/** A single-document route: a fixed kind or `custom`. */
export type ItemRoute = FixedKind | 'custom';

export interface ItemRequestDeps {
  prisma: PrismaClient;
  documents: Documents;
  engine: ExtractionEngine;
  /**
   * How a file is probed: `signal` stops the probe (a job cancelled), `keepForRead` keeps the process that probed the
   * file for its read (Documents.prepareFile), which the caller then does or releases (Documents.release).
   */
  reader?: { signal?: AbortSignal; keepForRead?: boolean };
}

/**
 * What a single-document request asks for, checked as its route checks it, before anything is reserved: the engine of
 * its model (400 for a model this server does not offer), a custom schema compiled (400 invalid_schema), a renewal's
 * vendor renewal (404 when not the account's), the document checked (a file probed, not read). The job workers build
 * their items here, with the checks of the synchronous routes (extract-routes.ts), so a job runs what the route would.
 */
export async function itemFor(deps: ItemRequestDeps, accountId: string, route: ItemRoute, input: SingleInput, documentPath?: string): Promise<{ engine: ExtractionEngine; item: ItemInput }> {
  return buildItem(deps, accountId, route, input, () => prepareDocument(deps, accountId, input, documentPath));
}

/**
 * As `itemFor`, without opening a file: the document checked as far as that goes without parsing it (Documents.check)
 * and a file's facts estimated from its media type and size (file-estimate.ts). Job intake builds its items here, so
 * its reservation follows the synchronous route's rules; the worker builds the item again with `itemFor`.
 */
export async function itemEstimate(deps: Pick<ItemRequestDeps, 'prisma' | 'engine'>, accountId: string, route: ItemRoute, input: SingleInput, documentPath?: string): Promise<{ engine: ExtractionEngine; item: ItemInput }> {
  return buildItem(deps, accountId, route, input, async () => {
    const checked = Documents.check(input.document, documentPath);
    return checked.kind === 'text' ? checked : { kind: 'file', bytes: checked.bytes, facts: estimatedFacts(checked) };
  });
}

async function buildItem(deps: Pick<ItemRequestDeps, 'prisma' | 'engine'>, accountId: string, route: ItemRoute, input: SingleInput, prepare: () => Promise<PreparedDocument>): Promise<{ engine: ExtractionEngine; item: ItemInput }> {
  const engine = ModelChoice.resolve(deps.engine, route, input.model);
  if (route === 'custom') {
    const schema = prepareCustomSchema(input.schema);
    const prepared = await prepare();
    return { engine, item: { task: { kind: 'custom', schema: input.schema as Record<string, unknown> }, schema, document: input.document, prepared, options: input.options } };
  }
  if (route === 'renewal') await assertVendorRenewal(deps.prisma, accountId, input.document.vendorRenewalId);
  const prepared = await prepare();
  return { engine, item: { task: { kind: route }, schema: dataSchemaFor(route), document: input.document, prepared, options: input.options } };
}

/** A form's file as its bytes, else the document of a JSON body, probed in a reader process on the account's turn. */
async function prepareDocument(deps: ItemRequestDeps, accountId: string, input: SingleInput, documentPath: string | undefined) {
  const caller = { accountId, ...deps.reader };
  return input.file ? deps.documents.prepareFile(input.file.bytes, input.file.mediaType, caller) : deps.documents.prepare(input.document, caller, documentPath);
}

