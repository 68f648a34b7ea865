import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { openapiJsonBytes, openapiYamlBytes } from '../contract/documents.js';

const gzipped = promisify(gzip);

/** How long a client may reuse the document without asking again; after that it revalidates with its ETag (304). */
const MAX_AGE_SECONDS = 300;

interface Published {
  bytes: Buffer;
  type: string;
  /** Weak: the identity and the gzip answers are the same document, so one validator serves both (RFC 9110 §8.8.1). */
  etag: string;
  /** The gzip answer, made once, on first demand, on libuv's thread pool (the JSON document is about 200 KB). */
  gzip?: Promise<Buffer>;
}

const documentOf = (bytes: Buffer, type: string): Published => ({
  bytes,
  type,
  etag: `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
});

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 §13.1.2 asks), or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * The public contract routes' headers: cacheable by anyone (`public`, revalidated with the ETag after five minutes,
 * instead of the `no-store` of every other answer), one cache entry per encoding, and readable from any origin
 * (`Access-Control-Allow-Origin: *`): browser tools on another origin (editors, generators, Scalar or Swagger UI
 * hosted elsewhere) fetch it, and it carries no credential and no secret. No other route has CORS.
 */
function contractHeaders(res: Response, doc: Published): void {
  res.setHeader('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}, must-revalidate`);
  res.setHeader('ETag', doc.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'ETag, x-request-id');
}

function serve(doc: Published): RequestHandler {
  return async (req: Request, res: Response) => {
    contractHeaders(res, doc);
    if (matches(req.headers['if-none-match'], doc.etag)) {
      res.status(304).end();
      return;
    }
    res.type(doc.type);
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      doc.gzip ??= gzipped(doc.bytes, { level: 9 });
      res.setHeader('Content-Encoding', 'gzip');
      res.send(await doc.gzip);
      return;
    }
    res.send(doc.bytes);
  };
}

export const serveOpenapiJson = serve(documentOf(openapiJsonBytes, 'application/json'));
export const serveOpenapiYaml = serve(documentOf(openapiYamlBytes, 'application/yaml'));

/**
 * A browser's CORS preflight for the contract routes (sent when a tool adds a header of its own): any origin may GET
 * them. The contract declares no OPTIONS operation, so this answers before the contract's routing.
 */
export const contractPreflight: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS' || (req.path !== '/openapi.json' && req.path !== '/openapi.yaml')) return next();
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
};
