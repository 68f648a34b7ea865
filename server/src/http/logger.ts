import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Secrets and document text never reach a log line. */
const REDACT = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  'key',
  '*.key',
  'rawKey',
  'token',
  '*.token',
  'text',
  '*.text',
  'document',
  '*.document',
  'body',
  '*.body',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'docextract' } };
  // Asynchronous writes keep logging off the request path (measured: synchronous stdout writes took ~10% of CPU
  // under load); main.ts flushes on shutdown.
  return pino(options, destination ?? stdoutDestination());
}

/**
 * Standard output, written asynchronously. A reader that goes away (a closed pipe: EPIPE) loses the log lines, never
 * the service: the error is not thrown, so requests are still answered and SIGTERM still ends the process.
 */
function withAnswered(res: ServerResponse, val: object): object {
  const note = answered.get(res);
  return note ? { ...val, error: { code: note.code, ...(note.cause ? { cause: note.cause } : {}) } } : val;
}

function stdoutDestination(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false });
  out.on('error', () => {});
  return out;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the error mapper tells the request's log line about an error it answered. */
export interface AnsweredError {
  code: string;
  /** A refusal the service meant (4xx, busy, database down): a warning at most, no stack. */
  expected: boolean;
  /** What made the database unavailable (a driver's error code), for the operator. */
  cause?: string;
}
const answered = new WeakMap<ServerResponse, AnsweredError>();

/** Records, for the request's one log line, the error an answer carries (called by the error mapper). */
export function noteAnsweredError(res: ServerResponse, error: AnsweredError): void {
  answered.set(res, error);
}

/**
 * Structured request logs with a request id: an incoming `x-request-id` is honoured (when sane) and echoed. Each
 * request ends in one line. An error the mapper answered is named there (`error: {code, cause}`) instead of pino-http's
 * made-up "failed with status code" error and its stack: an expected refusal (4xx, 503 busy or database down) is
 * that one line, at `info` (4xx) or `warn` (5xx), never a stack; an unexpected failure is `error`, and the mapper
 * has logged its stack frames once.
 */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
      res.setHeader('x-request-id', id);
      return id;
    },
    // Log the path without its query string; never bodies.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => {
      if (err) return 'error';
      if (res.statusCode < 500) return 'info';
      return answered.get(res)?.expected ? 'warn' : 'error';
    },
    customSuccessObject: (_req, res, val) => withAnswered(res, val),
    customErrorObject: (_req, res, error, val) => {
      const note = answered.get(res);
      // pino-http makes up an Error (with a stack into its own code) for any 5xx: the mapper's note says more.
      if (!note) return val;
      const { err: _made, ...rest } = val as Record<string, unknown>;
      return withAnswered(res, rest);
    },
    customErrorMessage: (_req, res) => (answered.get(res)?.expected ? 'request refused' : 'request failed'),
  });
}
