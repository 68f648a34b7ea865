import type { components } from '../../../../generated/openapi.js';
import type { PrismaClient } from '../../db/database.js';
import { ApiError } from '../../http/api-error.js';
import { newId } from '../../ids/ids.js';
import type { FixedData } from '../engines/engine.js';
import type { RenewalStatus } from './grounding.js';
import { LEGAL_FORM_LOWER } from '../engines/local/lexicon.js';

type StoredDocument = components['schemas']['StoredDocument'];


/** What a document sent as `text` without a `mediaType` is. */
const DEFAULT_MEDIA_TYPE = 'text/plain';

/** The vendor as a key: case, punctuation and legal-form suffixes do not make another vendor. */
export function vendorKey(name: string | null): string {
  if (!name) return '';
  return name.normalize('NFKC').toLowerCase().replace(/[.,]/g, ' ').replace(LEGAL_FORM_LOWER, ' ').replace(/[^\p{L}\p{N}&]+/gu, ' ').trim();
}

export function productKey(product: string | null): string {
  return product ? product.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim() : '';
}

/** 404 before any work is charged, when the caller names a vendor renewal that is not theirs. */
export async function assertVendorRenewal(prisma: PrismaClient, accountId: string, id: string | undefined): Promise<void> {
  if (!id) return;
  const found = await prisma.vendorRenewal.findFirst({ where: { id, accountId }, select: { id: true } });
  if (!found) throw new ApiError('not_found', 'No vendor renewal with this id.');
}

/** What one request stored: taken back if the request is refused after all (revoked key, caller gone). */
export interface StoredRenewal {
  documentId: string;
  /** Set when this request created the vendor renewal (it goes too when it is left without documents). */
  createdRenewalId: string | null;
}

/**
 * Takes back what a refused request stored: its documents, and the vendor renewals it created that hold no other
 * document. A request that answers 401 or that nobody reads charges nothing, so it leaves nothing either.
 */
export async function discardRenewalDocuments(prisma: PrismaClient, accountId: string, stored: StoredRenewal[]): Promise<void> {
  if (stored.length === 0) return;
  await prisma.storedDocument.deleteMany({ where: { accountId, id: { in: stored.map((s) => s.documentId) } } });
  const created = stored.map((s) => s.createdRenewalId).filter((id): id is string => id !== null);
  if (created.length) await prisma.vendorRenewal.deleteMany({ where: { accountId, id: { in: created }, documents: { none: {} } } });
}

/**
 * Stores the extraction (never the text) as a document record linked to its vendor renewal: the one named by the
 * caller, or the account's renewal for this vendor and product, created on first sight.
 */
export async function storeRenewalDocument(
  prisma: PrismaClient,
  accountId: string,
  document: { byteSize: number; filename?: string | undefined; mediaType?: string | undefined; vendorRenewalId?: string | undefined },
  { data, overallStatus }: { data: FixedData['renewal']; overallStatus: RenewalStatus },
  answer: { model: string; inputTokens: number; outputTokens: number },
  now: Date,
  stored?: StoredRenewal[],
): Promise<StoredDocument> {
  const vendorName = data.vendorName.value;
  const product = data.product.value;
  let vendorRenewalId = document.vendorRenewalId;
  let createdRenewalId: string | null = null;
  if (vendorRenewalId) {
    const updated = await prisma.vendorRenewal.updateMany({ where: { id: vendorRenewalId, accountId }, data: { updatedAt: now } });
    if (updated.count === 0) throw new ApiError('not_found', 'No vendor renewal with this id.');
  } else {
    const renewal = await prisma.vendorRenewal.upsert({
      where: { accountId_vendorKey_productKey: { accountId, vendorKey: vendorKey(vendorName), productKey: productKey(product) } },
      create: { id: newId(), accountId, vendorKey: vendorKey(vendorName), productKey: productKey(product), vendorName, product, createdAt: now },
      update: { vendorName: vendorName ?? undefined, product: product ?? undefined },
    });
    vendorRenewalId = renewal.id;
    // The upsert created it when its creation time is this request's (an existing renewal keeps its own).
    if (renewal.createdAt.getTime() === now.getTime()) createdRenewalId = renewal.id;
  }
  const row = await prisma.storedDocument.create({
    data: {
      id: newId(),
      accountId,
      vendorRenewalId,
      filename: document.filename ?? null,
      mediaType: document.mediaType ?? DEFAULT_MEDIA_TYPE,
      byteSize: document.byteSize,
      documentKindGuess: data.documentKindGuess,
      overallStatus,
      extraction: data as object,
      model: answer.model,
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
      createdAt: now,
    },
  });
  stored?.push({ documentId: row.id, createdRenewalId });
  return {
    id: row.id,
    vendorRenewalId: row.vendorRenewalId,
    filename: row.filename,
    mediaType: row.mediaType ?? DEFAULT_MEDIA_TYPE,
    byteSize: row.byteSize ?? document.byteSize,
    documentKindGuess: data.documentKindGuess,
    overallStatus,
    extraction: data,
    model: row.model,
    createdAt: row.createdAt.toISOString(),
  };
}
