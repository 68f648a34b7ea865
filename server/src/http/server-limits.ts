import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** How long and how large a client's request may be before the server gives up on it (docs/configuration.md). */
export interface ServerLimits {
  /** Time to receive a request's complete headers (slowloris); then 408 and the socket is closed. */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (a body that never ends); then 408 and close. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** The largest request head (request line and headers) accepted; larger ones are answered 431 and closed. */
  maxHeaderBytes: number;
  /**
   * Request bodies the process takes at once, all requests together, in bytes (each counted at its Content-Length,
   * or at its route's limit when chunked); a body that would pass it is answered 503 with `Retry-After` before it
   * is read (body-budget.ts).
   */
  maxBodyBytesInFlight: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  maxBodyBytesInFlight: 200 * 1024 * 1024,
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
export function createLimitedServer(app: RequestListener, limits: ServerLimits, logger?: Logger): Server {
  const server = createServer({ maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: checkingInterval(limits) }, app);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, limits, logger));
  return applyServerLimits(server, limits);
}

/** A socket as Node's HTTP server keeps it: the response in progress on it, if any. */
type ServerSocket = Duplex & { _httpMessage?: { headersSent?: boolean } };

/**
 * Requests Node refuses before the app sees them (a head over HTTP_MAX_HEADER_BYTES, a request not received in
 * time, bytes that are not HTTP) are answered like every other refusal: the error envelope, an `x-request-id`, and
 * the headers every answer has, then the connection is closed. Node's own answer is a bare status line. As Node
 * does, nothing is written when the client is gone or a response has already started on the socket.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: ServerSocket, limits: ServerLimits, logger: Logger | undefined): void {
  if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message, details] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'request_header_too_large', `The request line and headers are over ${limits.maxHeaderBytes.toLocaleString('en-US')} bytes.`, { limit: limits.maxHeaderBytes }]
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request was not received in time.', null]
      : [400, 'invalid_request', 'The request is not well-formed HTTP.', { errors: [] }];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code, message, details } });
  logger?.info({ requestId, status, code, reason: err.code ?? null }, 'request refused before routing');
  socket.end([
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n'));
}
