/**
 * True when an error means the database cannot be reached, or no connection to it came free in time (pg-pool's
 * "timeout exceeded when trying to connect" under load): answer 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { name?: string; code?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'PrismaClientInitializationError') return true;
    if (typeof e.code === 'string' && ['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001', '08003'].includes(e.code)) return true;
    if (typeof e.message === 'string' && /(Can't reach database|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|database system is (starting|shutting) up|DatabaseNotReachable|ConnectionClosed|timeout exceeded when trying to connect)/i.test(e.message)) return true;
    if (e.name === 'DriverAdapterError' && /DatabaseNotReachable|ConnectionClosed|SocketTimeout/.test(JSON.stringify(e))) return true;
  }
  return false;
}
