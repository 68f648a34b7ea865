// The one owner of reads and hand-made changes of vendor renewals and their stored documents (the renewal route
// writes them in extraction/renewal/renewal-store.ts). Every query is scoped to the account: another account's id
// is simply not found.
import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import type { StoredDocument as StoredDocumentRow } from '../db/prisma-client/client.js';

export type StoredDocument = components['schemas']['StoredDocument'];

const DEFAULT_MEDIA_TYPE = 'text/plain';

export interface RenewalRow {
  id: string;
  vendorName: string | null;
  product: string | null;
  overrides: unknown;
  cancelledAt: Date | null;
  createdAt: Date;
}

/** A document as the terms need it: newest first. */
export interface DocumentSummaryRow { id: string; extraction: unknown; createdAt: Date }

export interface RenewalWithDocuments<D> { renewal: RenewalRow; documents: D[] }

const RENEWAL_FIELDS = { id: true, vendorName: true, product: true, overrides: true, cancelledAt: true, createdAt: true } as const;
const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

export function toStoredDocument(row: StoredDocumentRow): StoredDocument {
  return {
    id: row.id,
    vendorRenewalId: row.vendorRenewalId,
    filename: row.filename,
    mediaType: row.mediaType ?? DEFAULT_MEDIA_TYPE,
    // Records stored before byte sizes were kept (the column is null for them) report 0: the text is gone.
    byteSize: row.byteSize ?? 0,
    documentKindGuess: row.documentKindGuess as StoredDocument['documentKindGuess'],
    overallStatus: row.overallStatus as StoredDocument['overallStatus'],
    extraction: row.extraction as StoredDocument['extraction'],
    model: row.model,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every vendor renewal of the account with its documents' extractions (the list is sorted by derived deadlines). */
export async function listAccountRenewals(prisma: PrismaClient, accountId: string): Promise<RenewalWithDocuments<DocumentSummaryRow>[]> {
  const rows = await prisma.vendorRenewal.findMany({
    where: { accountId },
    select: { ...RENEWAL_FIELDS, documents: { select: { id: true, extraction: true, createdAt: true }, orderBy: NEWEST_FIRST } },
  });
  return rows.map(({ documents, ...renewal }) => ({ renewal, documents }));
}

/** One vendor renewal of the account with its full document records, newest first; null when not the account's. */
export async function findAccountRenewal(prisma: PrismaClient, accountId: string, id: string): Promise<RenewalWithDocuments<StoredDocumentRow> | null> {
  const row = await prisma.vendorRenewal.findFirst({ where: { id, accountId }, select: { ...RENEWAL_FIELDS, documents: { orderBy: NEWEST_FIRST } } });
  if (!row) return null;
  const { documents, ...renewal } = row;
  return { renewal, documents };
}

export async function findAccountDocument(prisma: PrismaClient, accountId: string, id: string): Promise<StoredDocumentRow | null> {
  return prisma.storedDocument.findFirst({ where: { id, accountId } });
}

/**
 * Changes a vendor renewal by hand: `change` receives the stored overrides and cancelled mark under a row lock and
 * answers the new ones (so two concurrent updates of different terms both stay). False when not the account's.
 */
export async function changeAccountRenewal(
  prisma: PrismaClient,
  accountId: string,
  id: string,
  now: Date,
  change: (current: { overrides: unknown; cancelledAt: Date | null }) => { overrides: object; cancelledAt: Date | null },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ overrides: unknown; cancelled_at: Date | null }>>`
      SELECT overrides, cancelled_at FROM vendor_renewals WHERE id = ${id} AND account_id = ${accountId} FOR UPDATE`;
    const current = locked[0];
    if (!current) return false;
    const next = change({ overrides: current.overrides, cancelledAt: current.cancelled_at });
    await tx.vendorRenewal.update({ where: { id }, data: { overrides: next.overrides, cancelledAt: next.cancelledAt, updatedAt: now } });
    return true;
  });
}
