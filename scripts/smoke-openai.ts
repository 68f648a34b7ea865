// npm run smoke:openai — one call per route against a real OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp,
// LM Studio), for whoever runs one.
//
// Without OPENAI_MODEL it says so and exits 0 (nothing to check). With it, it starts the service with
// EXTRACTION_ENGINE=openai (OPENAI_BASE_URL, OPENAI_API_KEY and the other OPENAI_* variables as set) on a throw-away
// embedded database, creates an account on the starter plan and a key, calls every route once with a small labelled
// document, and prints per route: status, latency, tokens, HEU, dollars at the model's price (the built-in table with
// MODEL_PRICES_FILE over it; 0 for a model it does not price), and whether the answer met the contract
// (VALIDATE_RESPONSES is on). Exit 1 if any route failed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';
import { dollarsAt, loadPrices, priceOf } from '../server/src/config/model-prices.js';

const model = process.env.OPENAI_MODEL;
if (!model) {
  console.log('smoke:openai skipped: OPENAI_MODEL is not set, so no call was made to a model server.');
  process.exit(0);
}

const DOCS: Record<string, unknown> = {
  invoice: { document: { text: 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\nINVOICE\nInvoice No: INV-2026-0418\nInvoice Date: April 18, 2026\nDue Date: May 18, 2026\nBill To: Brightline Analytics Inc.\nData pipeline setup  1  $4,500.00  $4,500.00\nTotal due: $4,500.00' } },
  receipt: { document: { text: 'BLUE DOOR CAFE\n88 Elm Street\nPortland, OR 97205\n03/14/2026 12:47\n2 Flat White @ 4.50   9.00\nTOTAL $9.00\nVISA ****4821' } },
  contract: { document: { text: 'MUTUAL NON-DISCLOSURE AGREEMENT\nThis Agreement is made on March 1, 2026 between Northwind Traders Ltd. ("Discloser") and Contoso GmbH ("Recipient").\nIt is governed by the laws of England and Wales. Either party may terminate it with 30 days written notice.' } },
  'job-posting': { document: { text: 'Senior Data Engineer - Brightline Analytics\nLocation: Denver, CO (remote within the US)\nFull-time. Salary: $150,000 - $180,000 a year.\nRequirements:\n- 5 years of Python\n- SQL\nBenefits:\n- Health insurance' } },
  'meeting-notes': { document: { text: 'Weekly sync - 2026-03-02\nAttendees: Ana Lima (PM), Kwame Mensah\nDecisions:\n- Ship v2 on March 20\nAction items:\n- Kwame: update the runbook by 2026-03-06\nOpen questions:\n- Do we need a feature flag?' } },
  renewal: { document: { text: 'ORDER FORM\nVendor: Acme Analytics Inc.\nProduct: Acme Insights Pro, 25 seats\nFees: $1,250.00 per month\nSubscription term: January 1, 2026 to December 31, 2026.\nThis order renews automatically for successive 12-month terms unless either party gives notice of non-renewal at least 30 days before the end of the current term.' } },
  custom: { document: { text: 'Spring Meetup\nVenue: Hall B\nCapacity: 120 people' }, schema: { type: 'object', properties: { eventName: { type: 'string' }, venue: { type: 'string' }, capacity: { type: 'integer' } } } },
  batch: { items: [{ id: 'a', kind: 'receipt', document: { text: 'CORNER SHOP\nTOTAL 3.00\nCASH' } }] },
};

const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'docextract-smoke-'));
const secret = randomBytes(32).toString('base64url');
const price = priceOf(loadPrices(process.env.MODEL_PRICES_FILE || undefined), model);
const server = process.env.OPENAI_BASE_URL || 'https://api.openai.com/v1';
const child = spawn(process.execPath, ['server/dist/main.js'], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'true', DASHBOARD_JWT_SECRET: secret, EXTRACTION_ENGINE: 'openai', PLANS_FILE: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let failed = false;
try {
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; const m = /"port":(\d+)/.exec(out); if (m) resolve(Number(m[1])); });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${out}`)));
  });
  child.stdout!.resume();
  const base = `http://127.0.0.1:${port}`;
  const token = await mintDashboardToken(secret, 'acct_smoke');
  const created = await fetch(`${base}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"name": "smoke"}' });
  const { key } = await created.json() as { key: string };
  console.log(`smoke:openai on ${model} at ${server}${price.known ? '' : ' (no price known: counted at 0)'}`);
  console.log('route          status  ms     input  output  HEU  dollars    model                 contract');
  for (const [route, body] of Object.entries(DOCS)) {
    const started = Date.now();
    const res = await fetch(`${base}/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ms = Date.now() - started;
    const answer = await res.json() as { model?: string; usage?: { inputTokens: number; outputTokens: number; heu: number }; error?: { code: string } };
    const u = answer.usage;
    const ok = res.status === 200;
    failed ||= !ok;
    console.log([
      route.padEnd(14), String(res.status).padEnd(7), String(ms).padEnd(6),
      String(u?.inputTokens ?? '-').padEnd(6), String(u?.outputTokens ?? '-').padEnd(7), String(u?.heu ?? '-').padEnd(4),
      (u ? `$${dollarsAt(price, u).toFixed(5)}` : '-').padEnd(10), String(answer.model ?? '-').padEnd(21),
      ok ? 'passed' : `failed (${answer.error?.code ?? res.status})`,
    ].join(' '));
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
