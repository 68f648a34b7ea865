import type pg from 'pg';
import { createSql, type Sql } from './sql.js';

/** A transaction's connection: its hand-written statements (`sql`) and the client itself (for pg-boss's `db`). */
export interface Transaction {
  sql: Sql;
  client: pg.PoolClient;
}

/**
 * Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled back when it
 * throws. Everything inside must go through `tx` (never the pool): on the embedded database the pool has a single
 * connection, which this transaction holds, so a statement sent to the pool would wait for it forever.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work({ sql: createSql(client, false), client });
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw e;
  } finally {
    // A connection whose ROLLBACK failed is in an unknown state: close it rather than hand it out again.
    client.release(broken);
  }
}
