import { fileURLToPath } from 'node:url';
import compression from 'compression';
import { Router, type Response } from 'express';
import { staticAssets } from '../http/static-assets.js';

/**
 * Scalar's API reference, its browser bundle vendored (see vendor/scalar-api-reference/README.md): the one file the
 * page needs, served from our own origin.
 */
const SCALAR_DIR = fileURLToPath(new URL('../../../vendor/scalar-api-reference', import.meta.url));

/**
 * Scripts, styles and requests from our own origin only: no CDN, no fonts from elsewhere, no telemetry (the bundle
 * injects its styles inline). Never framed, like the dashboard.
 */
const CSP = "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docextract API reference</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/standalone.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/**
 * Our corrections to Scalar's layout, from this origin (the vendored bundle is never edited).
 *
 * "Test Request" opens Scalar's API client in a dialog whose panes are flex items with the default `min-width:
 * auto`: a request body with one long line (a base64 PDF, or a text example whose newlines are `\n` escapes) sized
 * them to that line, thousands of pixels wide, and took the address bar and its Send button off the screen (at 1280,
 * 1600 and 390 px), leaving the phone's dialog without anything to act on. Here the body editor wraps its lines
 * (anywhere: base64 has no spaces), and the dialog's panes may shrink to the screen and scroll inside instead.
 */
export const DOCS_STYLES = `/* docextract: the API client dialog keeps to the screen (server/src/meta/docs.ts). */
.scalar-client main,
.scalar-client main > div,
.scalar-client main > div > div,
.scalar-client .custom-scroll,
.scalar-client section,
.scalar-client .scalar-data-table,
.scalar-client table,
.scalar-client .cm-editor,
.scalar-client .cm-scroller {
  min-width: 0;
  max-width: 100%;
}
/* Above CodeMirror's own theme (.ͼ1 .cm-content), which Scalar injects after this sheet. */
.scalar-client .cm-editor .cm-content,
.scalar-client .cm-editor .cm-line {
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  word-break: break-all;
}
/* As CodeMirror's own line wrapping does: the content may shrink to its pane (its theme says flex-shrink: 0). */
.scalar-client .cm-editor .cm-content {
  flex-shrink: 1;
  min-width: 0;
}
`;

/**
 * The page's script (it also gives the key field a placeholder that is not a made-up key). Requests from the page ("Test Request", and the curl and Python samples it writes) go to the
 * first server in the document, which is the contract's (a local default port, or production), not the instance
 * that served the page: a request from another origin that the page's CSP and the API's lack of CORS both refuse.
 * So the page reads the published document and puts the origin that served it first in the server list, the
 * contract's own after it; /openapi.json itself is served unchanged.
 *
 * Scalar's hosted features (its AI agent, MCP generation, the developer toolbar, telemetry) are off: they reach
 * other origins. The request samples are curl, which Scalar writes from the contract and its examples, and the
 * TypeScript (our SDK) and Python (requests) programs the contract carries as `x-codeSamples`; Scalar's own Python
 * is a bare call with no import, so it is hidden, like every other language.
 */
export const DOCS_INIT_SCRIPT = `(function () {
  'use strict';
  var origin = window.location.origin;
  var mount = document.getElementById('reference');
  var ALL_BUT = function (keep) {
    var targets = ['c', 'clojure', 'csharp', 'dart', 'fsharp', 'go', 'http', 'java', 'js', 'julia', 'kotlin', 'node', 'objc', 'ocaml', 'php', 'powershell', 'python', 'r', 'ruby', 'rust', 'shell', 'swift'];
    var hidden = {};
    targets.forEach(function (target) { hidden[target] = keep[target] ? keep[target] : true; });
    return hidden;
  };
  fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('GET /openapi.json answered ' + res.status);
      return res.json();
    })
    .then(function (spec) {
      var others = (spec.servers || []).filter(function (server) { return String(server.url).replace(/\\/+$/, '') !== origin; });
      spec.servers = [{ url: origin, description: 'This server' }].concat(others);
      window.reference = Scalar.createApiReference(mount, {
        content: spec,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
        withDefaultFonts: false,
        persistAuth: false,
        authentication: { preferredSecurityScheme: 'ApiKeyAuth' },
        defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
        hiddenClients: ALL_BUT({ shell: ['httpie', 'wget'] }),
      });
    })
    .catch(function (err) {
      mount.textContent = 'The API reference could not be loaded: ' + err.message;
    });
  // Scalar's key and token fields show a made-up credential as their placeholder (base64 text), which reads as a key
  // already filled in: a reader sends the request without one and is answered 401. The placeholder says what to paste.
  var MADE_UP = 'QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT';
  var hint = function () {
    document.querySelectorAll('input[placeholder="' + MADE_UP + '"]').forEach(function (input) {
      var label = input.labels && input.labels[0] ? input.labels[0].textContent : '';
      input.placeholder = /token/i.test(label) ? 'Paste your session token here' : 'Paste your API key here';
    });
  };
  new MutationObserver(hint).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['placeholder'] });
})();
`;

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** The rendered reference: Scalar's bundle and our init script, both from this origin (no network needed). */
export function docsRoutes(): Router {
  const router = Router();
  router.get('/docs', (_req, res) => {
    pageHeaders(res);
    res.type('text/html').send(PAGE);
  });
  router.get('/docs/assets/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT_SCRIPT);
  });
  router.get('/docs/assets/docs.css', (_req, res) => {
    res.type('text/css').send(DOCS_STYLES);
  });
  // The bundle is 4.2 MB, about 1.2 MB gzipped; zlib runs on libuv's thread pool, not the event loop.
  router.use('/docs/assets', compression(), staticAssets(SCALAR_DIR, { maxAge: '1h', only: ['standalone.js'] }));
  return router;
}
