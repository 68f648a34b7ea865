/**
 * True when an error means the database cannot be reached, no connection to it came free in time (pg-pool's
 * "timeout exceeded when trying to connect" under load), or it did not answer within the pool's time limits: answer
 * 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { name?: string; code?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'PrismaClientInitializationError') return true;
    // 57014: a statement cancelled by DATABASE_STATEMENT_TIMEOUT_MS; 25P03: a session ended idle in a transaction;
    // 53300: "too many clients" (the server's max_connections, or a pooler's limit, reached).
    if (typeof e.code === 'string' && ['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '57014', '25P03', '08006', '08001', '08003', '53300'].includes(e.code)) return true;
    // "Query read timeout": no answer within DATABASE_QUERY_TIMEOUT_MS (a connection gone silent).
    if (typeof e.message === 'string' && /(Can't reach database|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|database system is (starting|shutting) up|DatabaseNotReachable|ConnectionClosed|timeout exceeded when trying to connect|Query read timeout)/i.test(e.message)) return true;
    if (e.name === 'DriverAdapterError' && /DatabaseNotReachable|ConnectionClosed|SocketTimeout/.test(JSON.stringify(e))) return true;
  }
  return false;
}
