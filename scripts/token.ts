// Prints a dashboard token for an account, signed with the configured secret (last line of stdout).
//   npm run token -- --account ID [--ttl SECONDS]
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config/config.js';
import { loadDotEnv } from '../server/src/config/dotenv.js';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';

const { values } = parseArgs({ options: { account: { type: 'string' }, ttl: { type: 'string' } } });
if (!values.account) {
  process.stderr.write('usage: npm run token -- --account ID [--ttl SECONDS]\n');
  process.exit(2);
}
loadDotEnv();
const config = loadConfig();
if (!config.dashboard.jwtSecret) {
  process.stderr.write('No DASHBOARD_JWT_SECRET is configured; tokens from an identity provider (DASHBOARD_JWKS_URL) cannot be minted here.\n');
  process.exit(2);
}
const token = await mintDashboardToken(config.dashboard.jwtSecret, values.account, {
  ttlSeconds: values.ttl ? Number(values.ttl) : undefined,
  issuer: config.dashboard.issuer,
  audience: config.dashboard.audience,
});
process.stdout.write(`${token}\n`);
