import type { PrismaClient } from '../db/database.js';
import type { Documents } from '../documents/documents.js';
import type { ExtractionEngine, FixedKind } from './engines/engine.js';
import { ModelChoice } from './engines/model-choice.js';
import { assertVendorRenewal } from './renewal/renewal-store.js';
import type { ItemInput, ItemResult } from './run-item.js';
import { dataSchemaFor } from './schemas/contract-schemas.js';
import { prepareCustomSchema } from './schemas/custom-schema.js';
import type { SingleInput } from './single-input.js';

/** A single-document route: a fixed kind or `custom`. */
export type ItemRoute = FixedKind | 'custom';

export interface ItemRequestDeps {
  prisma: PrismaClient;
  documents: Documents;
  engine: ExtractionEngine;
  /** Called before a file is opened (probed): a caller over its request rate is refused first (routes only). */
  beforeOpeningFile?: () => Promise<void>;
}

/**
 * What a single-document request asks for, checked as its route checks it, before anything is reserved: the engine of
 * its model (400 for a model this server does not offer), a custom schema compiled (400 invalid_schema), a renewal's
 * vendor renewal (404 when not the account's), the document checked (a file probed, not read). The synchronous routes
 * and the job workers both build their items here, so a job runs exactly what the route would.
 */
export async function itemFor(deps: ItemRequestDeps, accountId: string, route: ItemRoute, input: SingleInput, documentPath?: string): Promise<{ engine: ExtractionEngine; item: ItemInput }> {
  const engine = ModelChoice.resolve(deps.engine, route, input.model);
  if (route === 'custom') {
    const schema = prepareCustomSchema(input.schema);
    const prepared = await prepareDocument(deps, input, documentPath);
    return { engine, item: { task: { kind: 'custom', schema: input.schema as Record<string, unknown> }, schema, document: input.document, prepared } };
  }
  if (route === 'renewal') await assertVendorRenewal(deps.prisma, accountId, input.document.vendorRenewalId);
  const prepared = await prepareDocument(deps, input, documentPath);
  return { engine, item: { task: { kind: route }, schema: dataSchemaFor(route), document: input.document, prepared } };
}

/** A form's file as its bytes, else the document of a JSON body. */
async function prepareDocument(deps: ItemRequestDeps, input: SingleInput, documentPath: string | undefined) {
  if (input.file || input.document.content !== undefined) await deps.beforeOpeningFile?.();
  return input.file ? deps.documents.prepareFile(input.file.bytes, input.file.mediaType) : deps.documents.prepare(input.document, documentPath);
}

/**
 * The answer of a single-document route for an item's result: `{data, model, usage, source, ...}` as the item gave it,
 * and for a renewal the stored record's ids and status first, the record last (the interface document's shape).
 */
export function answerFor(result: ItemResult): Record<string, unknown> {
  const { document, ...answer } = result;
  if (!document) return answer;
  return { document_id: document.id, vendor_renewal_id: document.vendorRenewalId, overall_status: document.overallStatus, ...answer, document };
}
