import type pg from 'pg';

/** The PostgreSQL pool's size and time limits (DATABASE_POOL_MAX and DATABASE_*_TIMEOUT_MS; docs/configuration.md). */
export interface PoolSettings {
  /** Connections this process opens at most (pg-boss opens its own besides). */
  max: number;
  /** The longest a request waits for a connection: a new one to be made, or one of `max` to come free. */
  connectTimeoutMs: number;
  /** The server cancels a statement running longer (SQLSTATE 57014), freeing its locks; 0: no limit. */
  statementTimeoutMs: number;
  /** The client stops waiting for an answer after this (a connection gone silent: a database stopped or cut off). */
  queryTimeoutMs: number;
  /** The server ends a session idle inside a transaction this long (a process frozen while holding rows); 0: no limit. */
  idleInTransactionTimeoutMs: number;
  /**
   * `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer's pool_mode = transaction), where a session
   * lasts one transaction: no named prepared statements, and no session advisory locks (docs/deploy.md).
   */
  pooler?: 'none' | 'transaction';
}

/** Pools whose connections go through a transaction-mode pooler (see PoolSettings.pooler). */
const transactionPooled = new WeakSet<object>();
export const markTransactionPooled = (pool: object): void => void transactionPooled.add(pool);
export const isTransactionPooled = (pool: object): boolean => transactionPooled.has(pool);

/**
 * Fail fast: a request that cannot reach the database, or whose database stopped answering, is answered 503 within
 * seconds instead of hanging until the operating system gives up on the connection (measured before these limits:
 * sync requests hung about 40 s past the database's return).
 */
export const DEFAULT_POOL: PoolSettings = {
  max: 10,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 10_000,
  queryTimeoutMs: 15_000,
  idleInTransactionTimeoutMs: 60_000,
};

/** A dead peer (a database host gone without closing its connections) is noticed by TCP keepalive this soon after going quiet. */
const KEEPALIVE_IDLE_MS = 10_000;

/** pg's pool options for a PostgreSQL server under these settings. */
export function poolOptions(settings: PoolSettings): pg.PoolConfig {
  return {
    max: settings.max,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    query_timeout: settings.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    // Sent at connect as startup parameters; left out when 0 (a pooler that refuses them: set them on the role instead).
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
    ...(settings.idleInTransactionTimeoutMs > 0 ? { idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs } : {}),
  };
}

/** The limits taken off again, for work that may rightly run long on its own connection (a migration). */
export function withoutTimeouts(config: pg.PoolConfig): pg.PoolConfig {
  const { query_timeout: _q, statement_timeout: _s, idle_in_transaction_session_timeout: _i, ...rest } = config;
  return rest;
}
