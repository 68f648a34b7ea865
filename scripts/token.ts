// Prints a dashboard token for an account, signed with the configured secret (last line of stdout).
//   npm run token -- --account ID [--ttl SECONDS]     (default 12 hours, at most 24: the service refuses longer ones)
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config/config.js';
import { loadDotEnv } from '../server/src/config/dotenv.js';
import { MAX_TOKEN_LIFETIME_S, mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';

const { values } = parseArgs({ options: { account: { type: 'string' }, ttl: { type: 'string' } } });
if (!values.account) {
  process.stderr.write('usage: npm run token -- --account ID [--ttl SECONDS]\n');
  process.exit(2);
}
loadDotEnv();
// A token for any account id, which its first use creates: a development convenience, refused in production, where
// the admin command mints sessions for accounts that exist.
if (process.env.NODE_ENV === 'production') {
  process.stderr.write('npm run token is for a local service (NODE_ENV=production here): its token would create any account it names.\n'
    + 'Use the admin command instead (docs/deploy.md, "First key and first session in production"):\n'
    + '  npm run admin -- mint-session ACCOUNT [--ttl SECONDS]\n');
  process.exit(2);
}
const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0 && ttl <= MAX_TOKEN_LIFETIME_S)) {
  process.stderr.write(`--ttl must be 1 to ${MAX_TOKEN_LIFETIME_S} seconds (24 hours): the service refuses tokens that last longer.\n`);
  process.exit(2);
}
const config = loadConfig();
if (!config.dashboard.jwtSecret) {
  process.stderr.write('No DASHBOARD_JWT_SECRET is configured; tokens from an identity provider (DASHBOARD_JWKS_URL) cannot be minted here.\n');
  process.exit(2);
}
const token = await mintDashboardToken(config.dashboard.jwtSecret, values.account, {
  ttlSeconds: ttl,
  issuer: config.dashboard.issuer,
  audience: config.dashboard.audience,
});
process.stdout.write(`${token}\n`);
