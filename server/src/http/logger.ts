import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage } from 'node:http';

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
function stdoutDestination(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false });
  out.on('error', () => {});
  return out;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Structured request logs with a request id: an incoming `x-request-id` is honoured (when sane) and echoed. */
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
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
