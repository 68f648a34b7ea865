import { Router } from 'express';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docextract</title>
<link rel="icon" href="/favicon.ico">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<h1>docextract</h1>
<p>Typed, normalised fields from documents. This service is running.</p>
<ul>
<li><a href="/dashboard">Dashboard</a>: sign in, create and revoke API keys, see this month's usage</li>
<li><a href="/docs">API reference</a>: every route, with a working "try it"</li>
<li><a href="/openapi.json">openapi.json</a> / <a href="/openapi.yaml">openapi.yaml</a>: the contract</li>
</ul>
<p>A key for local use: <code>npm run key</code>. Then:<br>
<code>curl -s ${'$'}ORIGIN/v1/extract/receipt -H "x-api-key: $KEY" -H 'content-type: application/json' -d '{"document": {"text": "CORNER SHOP\\nTOTAL 3.00\\nCASH"}}'</code></p>
</body>
</html>
`;

/** `GET /`: a small page for a person who opens the service's address, linking what they are looking for. */
export function landingRoutes(): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    res.setHeader('X-Frame-Options', 'DENY');
    // The Host header is the caller's to write: escaped before it goes into the page.
    const origin = `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.type('text/html').send(PAGE.replace('$ORIGIN', origin));
  });
  // Browsers ask for it on every page: an empty answer, not a 404 in the console.
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.status(204).end();
  });
  return router;
}
