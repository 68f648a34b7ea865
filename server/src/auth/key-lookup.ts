import type { Sql } from '../db/sql.js';
import { utcTimestamp } from '../db/sql.js';

export interface KeyRow {
  id: string;
  accountId: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The key stored under this SHA-256, if any (an exact unique-index match). */
export async function findKeyByHash(sql: Sql, hash: string): Promise<KeyRow | undefined> {
  // Columns are UTC without a zone; AT TIME ZONE 'UTC' hands pg an instant it parses without the process's zone.
  const rows = await sql.rows<KeyRow>('key_by_hash', `
    SELECT id, account_id AS "accountId", revoked_at AT TIME ZONE 'UTC' AS "revokedAt", last_used_at AT TIME ZONE 'UTC' AS "lastUsedAt"
    FROM api_keys WHERE hash = $1`, [hash]);
  return rows[0];
}

/** `lastUsedAt` is written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** An active (not revoked) key of this account with this id, if any. */
export async function findActiveKey(sql: Sql, accountId: string, id: string): Promise<KeyRow | undefined> {
  const rows = await sql.rows<KeyRow>('key_active_by_id', `
    SELECT id, account_id AS "accountId", revoked_at AT TIME ZONE 'UTC' AS "revokedAt", last_used_at AT TIME ZONE 'UTC' AS "lastUsedAt"
    FROM api_keys WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL`, [id, accountId]);
  return rows[0];
}

/** Stamps the key as used now, unless another request stamped it within `resolutionMs`. */
export async function touchKey(sql: Sql, id: string, now: Date, resolutionMs: number): Promise<void> {
  await sql.execute('key_touch', `
    UPDATE api_keys SET last_used_at = $2::timestamp(3)
    WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3::timestamp(3))`,
  [id, utcTimestamp(now), utcTimestamp(new Date(now.getTime() - resolutionMs))]);
}
