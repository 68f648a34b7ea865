import { createHash } from 'node:crypto';
import { randomBase62 } from '../ids/ids.js';

/** The product prefix of every raw key, so leaked keys are recognisable by secret scanners. */
export const KEY_PREFIX = 'dx_live_';
/** 43 base62 characters carry more than 256 bits (32 bytes) of randomness. */
const RANDOM_CHARS = 43;
export const PREFIX_LENGTH = 12;

export interface NewApiKey {
  raw: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const raw = KEY_PREFIX + randomBase62(RANDOM_CHARS);
  return { raw, prefix: raw.slice(0, PREFIX_LENGTH), hash: hashApiKey(raw) };
}

export function hashApiKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Rejects strings that cannot be one of our keys before any database work. */
export function looksLikeApiKey(raw: string): boolean {
  return raw.length === KEY_PREFIX.length + RANDOM_CHARS && raw.startsWith(KEY_PREFIX) && /^[A-Za-z0-9_]+$/.test(raw);
}
