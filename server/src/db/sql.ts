import type pg from 'pg';

/**
 * Hand-written SQL for the few statements on every request's path (key lookup, account read, metering), sent
 * straight through pg: no query planning in the client, and on a real PostgreSQL each runs as a named prepared
 * statement, so the server plans it once per connection. The embedded database keeps one session across
 * reconnections, where a second PREPARE of the same name would fail, so there statements stay unnamed.
 */
export interface Sql {
  rows<R extends object>(name: string, text: string, values: unknown[]): Promise<R[]>;
  /** Rows changed by an INSERT/UPDATE/DELETE. */
  execute(name: string, text: string, values: unknown[]): Promise<number>;
}

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export function createSql(pool: Queryable, prepare: boolean): Sql {
  const config = (name: string, text: string, values: unknown[]): pg.QueryConfig => (prepare ? { name, text, values } : { text, values });
  return {
    async rows<R extends object>(name: string, text: string, values: unknown[]) {
      return (await (pool as pg.Pool).query<R>(config(name, text, values))).rows;
    },
    async execute(name, text, values) {
      return (await (pool as pg.Pool).query(config(name, text, values))).rowCount ?? 0;
    },
  };
}

/** `timestamp(3)` columns hold UTC without a zone: pass instants as such. */
export const utcTimestamp = (d: Date): string => d.toISOString().replace('Z', '');
