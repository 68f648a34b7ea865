import express, { Router } from 'express';
import { absolutePath } from 'swagger-ui-dist';

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
  router.use('/docs/assets', express.static(absolutePath(), { index: false, fallthrough: false, maxAge: '1h' }));
  return router;
}
