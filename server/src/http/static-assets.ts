import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error.js';

export interface StaticAssetOptions {
  /** How long browsers may keep a file, in express.static's notation ('5m', '1h'). */
  maxAge: string;
  /** Serve only these files of the folder (names relative to it); by default every file. */
  only?: readonly string[];
}

/**
 * The files of one folder, for GET and HEAD. Anything else is answered in the error envelope like the API's own
 * refusals: another method 405 with `Allow`, and a file that is not there (or not listed in `only`, a folder, a
 * dotfile, or a path that climbs out of the folder such as `..%2fpackage.json`) 404 `not_found`. express.static's
 * own refusals reached the error mapper as unknown errors: 500s, logged as failures. Read errors (EACCES) stay 500s.
 */
export function staticAssets(dir: string, { maxAge, only }: StaticAssetOptions): RequestHandler[] {
  const files = express.static(dir, { index: false, redirect: false, fallthrough: true, maxAge });
  const listed = only ? new Set(only.map((name) => `/${name}`)) : undefined;
  return [
    (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new ApiError('method_not_allowed', `${req.method} is not allowed on an asset.`, null, { Allow: 'GET, HEAD' });
      }
      if (listed && !listed.has(req.path)) return next();
      files(req, res, next);
    },
    () => {
      throw new ApiError('not_found', 'No such asset.');
    },
  ];
}
