// The service as `npm start` runs it, on a port chosen at start (PORT=0) and without PUBLIC_URL: the links it hands
// out (the upgrade link of a 402) point at the address it actually serves.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDashboardToken } from '../src/auth/dashboard-tokens.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';

const SECRET = 'public-url-test-secret-0123456789-0123456789';

let database: TestDatabase;
let server: ChildServer | undefined;
beforeAll(async () => {
  database = await createTestDatabase('embedded');
  // A free plan too small for any extraction: the first one is 402 with its upgrade link. New accounts start on free
  // (the default; NEW_ACCOUNT_PLAN says so here all the same, docs/metering.md).
  const plansFile = join(mkdtempSync(join(tmpdir(), 'public-url-plans-')), 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ free: { heuPerMonth: 1, requestsPerMinute: 1000 }, starter: { heuPerMonth: 10_000, requestsPerMinute: 1000 } }));
  server = await startChildServer({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? '', DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plansFile, NEW_ACCOUNT_PLAN: 'free', PORT: '0', HOST: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await database?.drop();
});

it('without PUBLIC_URL, a 402 upgrade link points at the port the service was given at start', async () => {
  const s = server!;
  expect(s.port).not.toBe(8080);
  const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, 'acct_public_url')}`, 'content-type': 'application/json' };
  const created = await fetch(`${s.baseUrl}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' });
  expect(created.status).toBe(201);
  const { key } = await created.json();
  const res = await fetch(`${s.baseUrl}/v1/extract/invoice`, {
    method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: 'INVOICE 1\nTotal $10.00' } }),
  });
  expect(res.status).toBe(402);
  const body = await res.json();
  expect(body.error.code).toBe('plan_limit_exceeded');
  expect(body.error.details.upgradeUrl).toBe(`${s.baseUrl}/dashboard/billing?plan=starter`);
  // The upgrade link answers: it is this service's dashboard.
  const page = await fetch(body.error.details.upgradeUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(s.output()).toContain(`"publicUrl":"${s.baseUrl}"`);
});
