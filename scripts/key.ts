// Prints an API key for local use, once: signs a dashboard token for a local account with the configured secret (as
// `npm run token` does) and asks the running service for a key, as the dashboard would.
//   npm run key [-- --account ID] [--name NAME] [--url URL]
// The service must be running (npm start); it is reached at PUBLIC_URL, else http://HOST:PORT as configured.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config/config.js';
import { loadDotEnv } from '../server/src/config/dotenv.js';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';

const { values } = parseArgs({ options: { account: { type: 'string', default: 'acct_local' }, name: { type: 'string', default: 'local key' }, url: { type: 'string' } } });
loadDotEnv();
// A convenience for a local service: in production it would create `acct_local` (or any account named) in the
// production database on the way. Operators have the admin command, which creates nothing they did not name.
if (process.env.NODE_ENV === 'production') {
  process.stderr.write('npm run key is for a local service (NODE_ENV=production here): it would create an account in your production database.\n'
    + 'Use the admin command instead (docs/deploy.md, "First key and first session in production"):\n'
    + '  npm run admin -- create-account ACCOUNT --plan free|starter\n  npm run admin -- create-key ACCOUNT\n');
  process.exit(2);
}
const config = loadConfig();
if (!config.dashboard.jwtSecret) {
  process.stderr.write('No DASHBOARD_JWT_SECRET is configured; sign in at the dashboard of your identity provider to create keys.\n');
  process.exit(2);
}
const base = (values.url ?? config.publicUrl).replace(/\/$/, '');
const token = await mintDashboardToken(config.dashboard.jwtSecret, values.account!, { issuer: config.dashboard.issuer, audience: config.dashboard.audience });
let res: Response;
try {
  res = await fetch(`${base}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: values.name }) });
} catch {
  process.stderr.write(`No docextract answers at ${base}: start it with \`npm start\` (or pass --url).\n`);
  process.exit(1);
}
const body = (await res.json()) as { key?: string; error?: { message?: string } };
if (res.status !== 201 || !body.key) {
  process.stderr.write(`${base} answered ${res.status}: ${body.error?.message ?? JSON.stringify(body)}\n`);
  process.exit(1);
}
// Say what the key may spend: its account's plan and limits (docs/metering.md says how to change them).
const account = (await fetch(`${base}/v1/account`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()).catch(() => null)) as { plan?: string; heuLimit?: number; requestsPerMinute?: number } | null;
const plan = account?.plan ? ` on the ${account.plan} plan (${account.heuLimit?.toLocaleString('en-US')} HEU a month, ${account.requestsPerMinute} requests a minute)` : '';
process.stderr.write(`A key for account ${values.account}${plan} (shown once; keep it):\n`);
process.stdout.write(`${body.key}\n`);
