import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './prisma-client/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';
import { createSql, type Sql } from './sql.js';
import { DEFAULT_POOL, markTransactionPooled, poolOptions, type PoolSettings } from './pool-settings.js';

export type { PrismaClient };

export interface Database {
  prisma: PrismaClient;
  /** The pool under Prisma; also used for the database's own readiness probe. */
  pool: pg.Pool;
  /** The hot path's hand-written statements (see sql.ts). */
  sql: Sql;
  kind: 'embedded' | 'postgres';
  /** Statements sent to the database so far (each is one round trip); for tests and benchmarks. */
  queryCount(): number;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL's pool size and time limits (default DEFAULT_POOL); the embedded database has one connection. */
  pool?: PoolSettings;
}

/** A PoolConfig for the configured database: the given PostgreSQL, or the embedded one started here. */
export async function connectionConfig(options: DatabaseOptions): Promise<{ config: pg.PoolConfig; embedded?: EmbeddedPostgres }> {
  if (options.databaseUrl) return { config: { connectionString: options.databaseUrl, ...poolOptions(options.pool ?? DEFAULT_POOL) } };
  const embedded = await startEmbeddedPostgres(options.dataDir);
  return { config: { ...embedded.connection }, embedded };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { config, embedded } = await connectionConfig(options);
  const pool = new pg.Pool(embedded ? {
    ...config,
    // The embedded database is one PostgreSQL session behind a socket server that does not keep one connection's
    // extended-protocol messages apart from another's outside an explicit transaction (electric-sql/pglite#1046):
    // with two connections, a statement can run inside another's transaction and be rolled back with it after it
    // was acknowledged. One connection is all PGlite can serve at a time anyway. No server-side limits: they would
    // apply to its one session.
    max: 1,
    connectionTimeoutMillis: DEFAULT_POOL.connectTimeoutMs,
    query_timeout: 30_000,
  } : config);
  // Through a transaction-mode pooler a statement prepared on one server session may run on another: none are named.
  const pooled = !embedded && options.pool?.pooler === 'transaction';
  if (pooled) markTransactionPooled(pool);
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let queries = 0;
  pool.on('connect', (client) => {
    client.on('error', () => {});
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      queries++;
      return query(...args);
    };
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    sql: createSql(pool, !embedded && !pooled),
    kind: embedded ? 'embedded' : 'postgres',
    queryCount: () => queries,
    async close() {
      await prisma.$disconnect().catch(() => {});
      await pool.end().catch(() => {});
      await embedded?.stop();
    },
  };
}
