import { v7 as uuidv7 } from 'uuid';
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text of `bytes` random bytes (uniform: each byte chooses among 62 by rejection). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A new id: a UUID version 7 (RFC 9562), as the contract states for every id a caller sees. Its first 48 bits are
 * the creation time in milliseconds and `uuid` keeps ids made in the same millisecond increasing, so "newest first"
 * and keyset cursors need only the id (canonical lower-case text sorts as the bytes do).
 */
export function newId(): string {
  return uuidv7();
}
