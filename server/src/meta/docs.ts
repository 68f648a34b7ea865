import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type Response } from 'express';
import { staticAssets } from '../http/static-assets.js';

// The package's folder, found without importing its index (which loads the whole 1 MB bundle at start).
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The package's files the page uses (and their source maps); not its demo page, which loads a remote spec. */
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui-bundle.js.map', 'swagger-ui.css', 'swagger-ui.css.map'];

/** Scripts and requests from our own origin only (Swagger UI sets inline styles); never framed, like the dashboard. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docextract API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/**
 * The page's script. "Try it out" calls the first server in the document, which is the contract's (a local default
 * port, or production), not the instance that served the page: a request from another origin that the page's CSP
 * and the API's lack of CORS both refuse ("Failed to fetch"). So the page reads the published document and puts
 * the origin that served it first in the server list, the contract's own after it; /openapi.json itself is served
 * unchanged.
 */
export const DOCS_INIT_SCRIPT = `(function () {
  'use strict';
  var origin = window.location.origin;
  fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('GET /openapi.json answered ' + res.status);
      return res.json();
    })
    .then(function (spec) {
      var others = (spec.servers || []).filter(function (server) { return String(server.url).replace(/\\/+$/, '') !== origin; });
      spec.servers = [{ url: origin, description: 'This server' }].concat(others);
      window.ui = SwaggerUIBundle({ spec: spec, dom_id: '#reference', deepLinking: true, tryItOutEnabled: true });
    })
    .catch(function (err) {
      document.getElementById('reference').textContent = 'The API reference could not be loaded: ' + err.message;
    });
})();
`;

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** The rendered reference, from swagger-ui-dist's files served here (no network needed), scripts from our origin only. */
export function docsRoutes(): Router {
  const router = Router();
  router.get('/docs', (_req, res) => {
    pageHeaders(res);
    res.type('text/html').send(PAGE);
  });
  router.get('/docs/assets/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT_SCRIPT);
  });
  router.use('/docs/assets', staticAssets(SWAGGER_UI_DIR, { maxAge: '1h', only: SWAGGER_UI_FILES }));
  return router;
}
