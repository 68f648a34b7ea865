// Vendor renewals as the API shows them: terms (terms.ts) and derived deadline (deadline.ts) over the stored rows
// (renewal-repository.ts); listing with filters and a keyset cursor; hand-made updates.
import type { components } from '../../../generated/openapi.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { deriveDeadline, noticeFromText, parseDate, type DeadlineStatus } from './deadline.js';
import { DATE_WINDOW_TEXT, isDateInWindow, isNoticeInBounds, NOTICE_BOUND_TEXT } from './term-bounds.js';
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
 * What the contract's schema checks by pattern only or says in words, and (again, should a validator skip
 * `unevaluatedProperties`) that only known members are named: a misspelt term or member is never ignored. Dates and
 * notice periods are held to the bounds of term-bounds.ts. Answers every problem at once.
 */
function checkUpdate(body: unknown): RenewalUpdate {
  const issues: Array<{ path: string; message: string }> = [];
  const b = (body ?? {}) as Record<string, unknown>;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const k of Object.keys(b)) if (k !== 'overrides' && k !== 'cancelled') issues.push({ path: `/body/${k}`, message: 'is not a member of a renewal update' });
  const overrides = isObject(b.overrides) ? b.overrides : null;
  if (b.overrides === undefined && b.cancelled === undefined) issues.push({ path: '/body', message: 'names nothing to change: send overrides, cancelled, or both' });
  if (overrides && Object.keys(overrides).length === 0) issues.push({ path: '/body/overrides', message: 'names no term: set or clear at least one' });
  for (const [k, input] of Object.entries(overrides ?? {})) {
    const path = `/body/overrides/${k}`;
    if (!(TERM_NAMES as readonly string[]).includes(k)) {
      issues.push({ path, message: `is not a term; terms are ${TERM_NAMES.join(', ')}` });
      continue;
    }
    if (!isObject(input)) continue; // null clears; anything else is the contract's to refuse
    for (const member of Object.keys(input)) if (member !== 'value') issues.push({ path: `${path}/${member}`, message: 'is not a member of an override (it takes value only)' });
    const value = input.value;
    if ((k === 'renewalDate' || k === 'contractEndDate') && typeof value === 'string') {
      if (!parseDate(value)) issues.push({ path: `${path}/value`, message: 'is not a calendar date' });
      else if (!isDateInWindow(value)) issues.push({ path: `${path}/value`, message: `must be ${DATE_WINDOW_TEXT}` });
    }
    if (k === 'noticePeriodDays' && typeof value === 'number' && !isNoticeInBounds({ amount: value, unit: 'days' })) {
      issues.push({ path: `${path}/value`, message: `must be ${NOTICE_BOUND_TEXT}` });
    }
    if (k === 'noticePeriodText' && typeof value === 'string') {
      const read = noticeFromText(value);
      if (read && !isNoticeInBounds(read)) issues.push({ path: `${path}/value`, message: `states ${read.amount} ${read.unit}; a notice period must be ${NOTICE_BOUND_TEXT}` });
    }
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
  const changed = await changeAccountRenewal(prisma, accountId, id, now, (current) => {
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
