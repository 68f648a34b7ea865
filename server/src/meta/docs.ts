import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

// The package's folder, found without importing its index (which loads the whole 1 MB bundle at start).
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docextract API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });\n`;

/** The rendered reference, from swagger-ui-dist's files served here (no network needed), scripts from our origin only. */
export function docsRoutes(): Router {
  const router = Router();
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.type('text/html').send(PAGE);
  });
  router.get('/docs/assets/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, fallthrough: false, maxAge: '1h' }));
  return router;
}
