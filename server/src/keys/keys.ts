import { createHash } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import { generateApiKey } from '../auth/api-keys.js';
import type { PrismaClient } from '../db/database.js';
import type { ApiKey as ApiKeyRow } from '../db/prisma-client/client.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../ids/ids.js';
import { canonicalJson } from '../http/canonical-json.js';

type Schemas = components['schemas'];
export type ApiKeyRecord = Schemas['ApiKey'];

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
export const DEFAULT_KEY_NAME = 'Default key';

export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export type KeyCreation = { status: 201; body: Schemas['CreatedApiKey'] } | { status: 200; body: Schemas['CreatedApiKey'] };

/** A stable digest of a JSON body, independent of member order. */
function bodyDigest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body ?? {})).digest('hex');
}

/**
 * Creates a key. With an idempotency key, the record of it is inserted in the same transaction as the key, so
 * concurrent twins wait on its unique index and exactly one key is created; a later twin replays the record
 * (without the raw key, which is never kept).
 */
export async function createApiKey(
  prisma: PrismaClient,
  accountId: string,
  body: Schemas['CreateApiKeyRequest'],
  idempotencyKey: string | undefined,
  now: Date,
): Promise<KeyCreation> {
  const name = body.name ?? DEFAULT_KEY_NAME;
  const key = generateApiKey();
  if (!idempotencyKey) {
    const row = await prisma.apiKey.create({ data: { id: newId(), accountId, name, prefix: key.prefix, hash: key.hash, createdAt: now } });
    return { status: 201, body: { ...toApiKeyRecord(row), key: key.raw, idempotent: false } };
  }
  const digest = bodyDigest(body);
  return prisma.$transaction(async (tx) => {
    await tx.idempotencyRecord.deleteMany({ where: { accountId, key: idempotencyKey, expiresAt: { lt: now } } });
    const recordId = newId();
    const inserted = await tx.$executeRaw`
      INSERT INTO idempotency_records (id, account_id, key, request_hash, created_at, expires_at)
      VALUES (${recordId}, ${accountId}, ${idempotencyKey}, ${digest}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
      ON CONFLICT (account_id, key) DO NOTHING`;
    if (inserted === 0) {
      const existing = await tx.idempotencyRecord.findUniqueOrThrow({ where: { accountId_key: { accountId, key: idempotencyKey } } });
      if (existing.requestHash !== digest) throw new ApiError('idempotency_key_reused');
      const row = existing.apiKeyId ? await tx.apiKey.findUnique({ where: { id: existing.apiKeyId } }) : null;
      if (!row) throw new ApiError('internal_error');
      return { status: 200 as const, body: { ...toApiKeyRecord(row), idempotent: true } };
    }
    const row = await tx.apiKey.create({ data: { id: newId(), accountId, name, prefix: key.prefix, hash: key.hash, createdAt: now } });
    await tx.idempotencyRecord.update({ where: { id: recordId }, data: { apiKeyId: row.id } });
    return { status: 201 as const, body: { ...toApiKeyRecord(row), key: key.raw, idempotent: false } };
  });
}

/** The account's keys, newest first (ids sort by creation time), `limit` at a time after `cursor`. */
export async function listApiKeys(prisma: PrismaClient, accountId: string, limit: number, cursor: string | undefined): Promise<Schemas['ApiKeyList']> {
  const rows = await prisma.apiKey.findMany({
    where: { accountId, ...(cursor ? { id: { lt: cursor } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { keys: page.map(toApiKeyRecord), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** Revokes a key of this account; revoking again answers the same record. */
export async function revokeApiKey(prisma: PrismaClient, accountId: string, id: string, now: Date): Promise<ApiKeyRecord> {
  await prisma.apiKey.updateMany({ where: { id, accountId, revokedAt: null }, data: { revokedAt: now } });
  const row = await prisma.apiKey.findFirst({ where: { id, accountId } });
  if (!row) throw new ApiError('not_found', 'No API key with this id.');
  return toApiKeyRecord(row);
}
