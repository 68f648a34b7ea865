// Calendar feed tokens: the credential a calendar app holds in the feed's URL. Like API keys, only the SHA-256 and a
// prefix are kept; the raw token is answered once. One token per account: a reset replaces it (the old one stops
// working at once), a revocation deletes it. This file is the one owner of the calendar_feeds table.
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../db/database.js';
import { randomBase62 } from '../ids/ids.js';

export const FEED_TOKEN_PREFIX = 'dxcal_';
const RANDOM_CHARS = 43;
const PREFIX_LENGTH = 12;

export interface FeedState { active: boolean; prefix: string | null; createdAt: string | null }

export function hashFeedToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Rejects strings that cannot be a feed token before any database work. */
export function looksLikeFeedToken(raw: string): boolean {
  return raw.length === FEED_TOKEN_PREFIX.length + RANDOM_CHARS && raw.startsWith(FEED_TOKEN_PREFIX) && /^[A-Za-z0-9_]+$/.test(raw);
}

/** The account whose active feed token this is, or null. */
export async function findFeedAccount(prisma: PrismaClient, raw: string): Promise<string | null> {
  if (!looksLikeFeedToken(raw)) return null;
  const row = await prisma.calendarFeed.findUnique({ where: { hash: hashFeedToken(raw) }, select: { accountId: true } });
  return row?.accountId ?? null;
}

export async function readFeedState(prisma: PrismaClient, accountId: string): Promise<FeedState> {
  const row = await prisma.calendarFeed.findUnique({ where: { accountId } });
  return row ? { active: true, prefix: row.prefix, createdAt: row.createdAt.toISOString() } : { active: false, prefix: null, createdAt: null };
}

/** Creates the account's token, or replaces it; answers the raw token once. */
export async function resetFeedToken(prisma: PrismaClient, accountId: string, now: Date): Promise<FeedState & { token: string }> {
  const raw = FEED_TOKEN_PREFIX + randomBase62(RANDOM_CHARS);
  const data = { prefix: raw.slice(0, PREFIX_LENGTH), hash: hashFeedToken(raw), createdAt: now };
  const row = await prisma.calendarFeed.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
  return { active: true, prefix: row.prefix, createdAt: row.createdAt.toISOString(), token: raw };
}

export async function revokeFeedToken(prisma: PrismaClient, accountId: string): Promise<FeedState> {
  await prisma.calendarFeed.deleteMany({ where: { accountId } });
  return { active: false, prefix: null, createdAt: null };
}
