import { createServer, type RequestListener, type Server } from 'node:http';

/** How long and how large a client's request may be before the server gives up on it (README, Configuration). */
export interface ServerLimits {
  /** Time to receive a request's complete headers (slowloris); then 408 and the socket is closed. */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (a body that never ends); then 408 and close. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** The largest request head (request line and headers) accepted; larger ones are answered 431 and closed. */
  maxHeaderBytes: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
};

/**
 * Node checks the two request timeouts only every `connectionsCheckingInterval` (30 s by default), which would let
 * a stalled client hold its socket for up to that much longer than the limit: check at a quarter of the shorter one.
 */
function checkingInterval(limits: ServerLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.min(5_000, Math.max(50, Math.floor(shortest / 4)));
}

/** Sets the timeouts on a server (those Node lets change after creation). */
export function applyServerLimits(server: Server, limits: ServerLimits): Server {
  // Node requires headersTimeout <= requestTimeout (when the latter is set).
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  return server;
}

/**
 * An HTTP server for the app with every limit in place: header size and the timeout check interval can only be set
 * when the server is created, so the service (main.ts) and the tests (harness) both build their server here.
 */
export function createLimitedServer(app: RequestListener, limits: ServerLimits): Server {
  const server = createServer({ maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: checkingInterval(limits) }, app);
  return applyServerLimits(server, limits);
}
