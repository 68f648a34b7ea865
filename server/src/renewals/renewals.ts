// Vendor renewals as the API shows them: terms (terms.ts) and derived deadline (deadline.ts) over the stored rows
// (renewal-repository.ts); listing with filters and a keyset cursor; hand-made updates.
import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { deriveDeadline, parseDate, type DeadlineStatus } from './deadline.js';
import { mergeTerms, readOverrides, TERM_NAMES, type Overrides, type TermDocument, type TermName } from './terms.js';
import {
  changeAccountRenewal, findAccountDocument, findAccountRenewal, listAccountRenewals, toStoredDocument,
  type RenewalRow, type StoredDocument,
} from './renewal-repository.js';

type Schemas = components['schemas'];
export type VendorRenewal = Schemas['VendorRenewal'];
export type VendorRenewalDetail = Schemas['VendorRenewalDetail'];
export type RenewalUpdate = Schemas['RenewalUpdate'];

/** A vendor renewal with its terms and derived fields, as of `now`. */
export function toVendorRenewal(renewal: RenewalRow, documentsNewestFirst: Array<TermDocument & { createdAt: Date }>, now: Date): VendorRenewal {
  const overrides = readOverrides(renewal.overrides);
  const terms = mergeTerms(documentsNewestFirst, overrides);
  const derived = deriveDeadline({
    renewalDate: terms.renewalDate.value,
    noticePeriodDays: terms.noticePeriodDays.value,
    noticePeriodText: terms.noticePeriodText.value,
    // A phrase corrected by hand ("3 months") wins over an extracted day count it contradicts.
    preferText: terms.noticePeriodText.source === 'override' && terms.noticePeriodDays.source !== 'override',
    cancelled: renewal.cancelledAt !== null,
  }, now);
  return {
    id: renewal.id,
    vendorName: renewal.vendorName,
    product: renewal.product,
    terms,
    ...derived,
    cancelledAt: renewal.cancelledAt?.toISOString() ?? null,
    documentCount: documentsNewestFirst.length,
    lastDocumentAt: documentsNewestFirst[0]?.createdAt.toISOString() ?? null,
    createdAt: renewal.createdAt.toISOString(),
  };
}

export interface ListQuery {
  status?: DeadlineStatus;
  deadlineFrom?: string;
  deadlineTo?: string;
  limit: number;
  cursor?: string;
}

/** No deadline sorts after every date ('~' follows the digits). */
const NO_DEADLINE = '~';
const sortKey = (r: VendorRenewal) => `${r.cancellationDeadline ?? NO_DEADLINE}|${r.id}`;

function invalid(path: string, message: string): ApiError {
  return new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });
}

/**
 * The account's vendor renewals, soonest deadline first (none last), then by id. The deadline is derived, so the
 * account's renewals are read and sorted here; the cursor is the sort key of the last one shown
 * (`2026-12-01|<id>`), and a page holds those after it, as the key list's cursor does (any string is a position).
 * A range that ends before it starts holds none.
 */
export async function listRenewals(prisma: PrismaClient, accountId: string, query: ListQuery, now: Date): Promise<Schemas['VendorRenewalList']> {
  // The contract's `format: date` is checked by pattern only (2026-13-01 passes it).
  for (const name of ['deadlineFrom', 'deadlineTo'] as const) {
    if (query[name] !== undefined && !parseDate(query[name])) throw invalid(`/query/${name}`, 'is not a calendar date (YYYY-MM-DD)');
  }
  const matching = (await allRenewals(prisma, accountId, now))
    .filter((r) => !query.status || r.status === query.status)
    .filter((r) => !query.deadlineFrom || (r.cancellationDeadline !== null && r.cancellationDeadline >= query.deadlineFrom))
    .filter((r) => !query.deadlineTo || (r.cancellationDeadline !== null && r.cancellationDeadline <= query.deadlineTo))
    .map((r) => ({ r, key: sortKey(r) }))
    .filter(({ key }) => query.cursor === undefined || key > query.cursor);
  const page = matching.slice(0, query.limit);
  return { renewals: page.map(({ r }) => r), nextCursor: matching.length > query.limit ? page[page.length - 1]!.key : null };
}

/** Every vendor renewal of the account, soonest deadline first (none last), then by id. */
export async function allRenewals(prisma: PrismaClient, accountId: string, now: Date): Promise<VendorRenewal[]> {
  const rows = await listAccountRenewals(prisma, accountId);
  return rows
    .map(({ renewal, documents }) => toVendorRenewal(renewal, documents, now))
    .map((r) => ({ r, key: sortKey(r) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ r }) => r);
}

export async function getRenewal(prisma: PrismaClient, accountId: string, id: string, now: Date): Promise<VendorRenewalDetail> {
  const found = await findAccountRenewal(prisma, accountId, id);
  if (!found) throw new ApiError('not_found', 'No vendor renewal with this id.');
  return { ...toVendorRenewal(found.renewal, found.documents, now), documents: found.documents.map(toStoredDocument) };
}

export async function getDocument(prisma: PrismaClient, accountId: string, id: string): Promise<StoredDocument> {
  const row = await findAccountDocument(prisma, accountId, id);
  if (!row) throw new ApiError('not_found', 'No stored document with this id.');
  return toStoredDocument(row);
}

/**
 * What the contract's schema checks by pattern only, and (again, should a validator skip `unevaluatedProperties`)
 * that only known members are named: a misspelt term is never ignored. Answers every problem at once.
 */
function checkUpdate(body: unknown): RenewalUpdate {
  const issues: Array<{ path: string; message: string }> = [];
  const b = (body ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(b)) if (k !== 'overrides' && k !== 'cancelled') issues.push({ path: `/body/${k}`, message: 'is not a member of a renewal update' });
  if (b.overrides && typeof b.overrides === 'object') {
    for (const k of Object.keys(b.overrides)) if (!(TERM_NAMES as readonly string[]).includes(k)) issues.push({ path: `/body/overrides/${k}`, message: `is not a term; terms are ${TERM_NAMES.join(', ')}` });
    const rd = (b.overrides as Record<string, { value?: unknown } | null>).renewalDate;
    if (rd && typeof rd.value === 'string' && !parseDate(rd.value)) issues.push({ path: '/body/overrides/renewalDate/value', message: 'is not a calendar date' });
    const ce = (b.overrides as Record<string, { value?: unknown } | null>).contractEndDate;
    if (ce && typeof ce.value === 'string' && !parseDate(ce.value)) issues.push({ path: '/body/overrides/contractEndDate/value', message: 'is not a calendar date' });
  }
  if (issues.length) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw new ApiError('invalid_request', `${issues[0]!.path} ${issues[0]!.message}${more}`, { errors: issues });
  }
  return b as RenewalUpdate;
}

/** Sets or clears overrides and the cancelled mark; answers the renewal as it now stands. */
export async function updateRenewal(prisma: PrismaClient, accountId: string, id: string, body: unknown, now: Date): Promise<VendorRenewal> {
  const update = checkUpdate(body);
  const setAt = now.toISOString();
  // An empty update writes nothing (the row's updatedAt included) and answers the renewal as it stands.
  const changes = Object.keys(update.overrides ?? {}).length > 0 || update.cancelled !== undefined;
  const changed = !changes ? true : await changeAccountRenewal(prisma, accountId, id, now, (current) => {
    const overrides: Overrides = readOverrides(current.overrides);
    for (const [name, input] of Object.entries(update.overrides ?? {}) as Array<[TermName, { value: unknown } | null]>) {
      if (input === null) delete overrides[name];
      else overrides[name] = { value: input.value, setAt };
    }
    const cancelledAt = update.cancelled === undefined ? current.cancelledAt : update.cancelled ? (current.cancelledAt ?? now) : null;
    return { overrides, cancelledAt };
  });
  if (!changed) throw new ApiError('not_found', 'No vendor renewal with this id.');
  const { documents: _documents, ...renewal } = await getRenewal(prisma, accountId, id, now);
  return renewal;
}
