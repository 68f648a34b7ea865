// The admin command's commands (`npm run admin -- help` lists them): each checks its own arguments before it opens
// the database, and works through the services the API uses (accounts/, keys/, auth/), never SQL of its own.
import type { ParseArgsConfig } from 'node:util';
import type { PlanName } from '../config/plans.js';
import { createAccount, findAccount, listAccounts, setAccountPlan, type AccountListing } from '../accounts/accounts.js';
import { ACCOUNT_ID, MAX_TOKEN_LIFETIME_S, mintDashboardToken, DEFAULT_TOKEN_TTL_S } from '../auth/dashboard-tokens.js';
import { createApiKey, DEFAULT_KEY_NAME } from '../keys/keys.js';
import { CommandFailed, UsageError, type AdminContext } from './context.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  usage: string;
  summary: string;
  options: Options;
  /** How many positional arguments it takes. */
  positionals: number;
  run(ctx: AdminContext, args: string[], values: Record<string, string | boolean | undefined>): Promise<void>;
}

const PLANS: readonly PlanName[] = ['free', 'starter'];

function planArg(value: string | undefined, what: string): PlanName {
  if (value === undefined || !(PLANS as readonly string[]).includes(value)) throw new UsageError(`${what} must be free or starter${value === undefined ? '' : ` (not ${JSON.stringify(value)})`}`);
  return value as PlanName;
}

function accountArg(value: string): string {
  if (!ACCOUNT_ID.test(value)) throw new UsageError(`${JSON.stringify(value)} is not an account id: 1 to 128 of A-Z a-z 0-9 _ . : @ | -`);
  return value;
}

async function existingAccount(ctx: AdminContext, id: string): Promise<AccountListing> {
  const account = await findAccount((await ctx.db()).prisma, id);
  if (!account) throw new CommandFailed(`No account ${id}: create it first (npm run admin -- create-account ${id} --plan free|starter).`);
  return account;
}

function limitsOf(ctx: AdminContext, plan: PlanName): string {
  const p = ctx.config.plans[plan];
  return `the ${plan} plan: ${p.heuPerMonth.toLocaleString('en-US')} HEU a month, ${p.requestsPerMinute} requests a minute`;
}

export const COMMANDS: Record<string, Command> = {
  'create-account': {
    usage: 'create-account ACCOUNT [--plan free|starter]',
    summary: 'create an account (plan: NEW_ACCOUNT_PLAN, free unless set)',
    options: { plan: { type: 'string' } },
    positionals: 1,
    async run(ctx, [id], values) {
      const account = accountArg(id!);
      const plan = values.plan === undefined ? ctx.config.newAccountPlan : planArg(values.plan as string, '--plan');
      if (!(await createAccount((await ctx.db()).prisma, account, plan))) {
        throw new CommandFailed(`Account ${account} exists already (set-plan moves it to another plan).`);
      }
      ctx.io.out(`Created account ${account} on ${limitsOf(ctx, plan)}.\n`);
    },
  },
  'list-accounts': {
    usage: 'list-accounts [--json]',
    summary: 'every account: id, plan, status, active keys, created',
    options: { json: { type: 'boolean' } },
    positionals: 0,
    async run(ctx, _args, values) {
      const accounts = await listAccounts((await ctx.db()).prisma);
      if (values.json) {
        ctx.io.out(`${JSON.stringify(accounts.map((a) => ({ id: a.id, plan: a.plan, status: a.status, activeKeyCount: a.activeKeyCount, stripeSubscription: a.stripeSubscriptionId !== null, createdAt: a.createdAt.toISOString() })))}\n`);
        return;
      }
      if (accounts.length === 0) {
        ctx.io.err('No accounts yet: npm run admin -- create-account ACCOUNT.\n');
        return;
      }
      const rows = [['ACCOUNT', 'PLAN', 'STATUS', 'KEYS', 'CREATED'], ...accounts.map((a) => [a.id, a.plan, a.status, String(a.activeKeyCount), a.createdAt.toISOString()])];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows) ctx.io.out(`${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`);
    },
  },
  'set-plan': {
    usage: 'set-plan ACCOUNT free|starter',
    summary: 'move an account to a plan (its limits apply at once)',
    options: {},
    positionals: 2,
    async run(ctx, [id, planName]) {
      const account = accountArg(id!);
      const plan = planArg(planName, 'the plan');
      const moved = await setAccountPlan((await ctx.db()).prisma, account, plan);
      if (!moved) throw new CommandFailed(`No account ${account}: create it with npm run admin -- create-account ${account} --plan ${plan}.`);
      ctx.io.out(moved.before === plan
        ? `Account ${account} is on the ${plan} plan already: nothing changed.\n`
        : `Moved account ${account} from ${moved.before} to ${limitsOf(ctx, plan)}.\n`);
      if (moved.account.stripeSubscriptionId) {
        ctx.io.err(`Note: account ${account} has a Stripe subscription; Stripe's next event for it sets its plan again (docs/billing.md).\n`);
      }
    },
  },
  'create-key': {
    usage: 'create-key ACCOUNT [--name NAME]',
    summary: 'an API key for the account, printed once (stdout)',
    options: { name: { type: 'string' } },
    positionals: 1,
    async run(ctx, [id], values) {
      const account = accountArg(id!);
      const name = (values.name as string | undefined) ?? DEFAULT_KEY_NAME;
      // The API's own bounds for a key's name (1-100 characters, no NUL: PostgreSQL text cannot hold it).
      if (name.length < 1 || name.length > 100 || name.includes('\u0000')) throw new UsageError('--name must be 1 to 100 characters');
      const found = await existingAccount(ctx, account);
      const created = await createApiKey((await ctx.db()).prisma, account, { name }, undefined, ctx.now());
      const { key, prefix, id: keyId } = created.body;
      ctx.io.err(`A key for account ${account} (${limitsOf(ctx, found.plan)}): "${name}", id ${keyId}, prefix ${prefix}. Shown once; keep it:\n`);
      ctx.io.out(`${key}\n`);
    },
  },
  'mint-session': {
    usage: 'mint-session ACCOUNT [--ttl SECONDS]',
    summary: `a dashboard session token for the account (${DEFAULT_TOKEN_TTL_S / 3600} h; --ttl up to ${MAX_TOKEN_LIFETIME_S})`,
    options: { ttl: { type: 'string' } },
    positionals: 1,
    async run(ctx, [id], values) {
      const account = accountArg(id!);
      const ttl = values.ttl === undefined ? DEFAULT_TOKEN_TTL_S : Number(values.ttl);
      if (!(/^\d+$/.test(String(values.ttl ?? ttl)) && ttl >= 1 && ttl <= MAX_TOKEN_LIFETIME_S)) {
        throw new UsageError(`--ttl must be 1 to ${MAX_TOKEN_LIFETIME_S} seconds (24 hours): the service refuses sessions that last longer`);
      }
      const { jwksUrl, jwtSecret, issuer, audience } = ctx.config.dashboard;
      // With DASHBOARD_JWKS_URL the service verifies only the identity provider's tokens: one signed here would be refused.
      if (jwksUrl) throw new CommandFailed('Dashboard sessions come from your identity provider here (DASHBOARD_JWKS_URL): the service accepts no token signed with a local secret. Sign in through the provider; create-key gives a key without a session.');
      if (!jwtSecret) throw new CommandFailed('No DASHBOARD_JWT_SECRET is configured: set it as the service has it.');
      await existingAccount(ctx, account);
      const token = await mintDashboardToken(jwtSecret, account, { ttlSeconds: ttl, issuer, audience });
      const until = new Date(ctx.now().getTime() + ttl * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      ctx.io.err(`A dashboard session for account ${account}, valid until ${until}: paste it into the dashboard's sign-in (Session token).\n`);
      ctx.io.out(`${token}\n`);
    },
  },
  migrate: {
    usage: 'migrate',
    summary: 'apply the migrations the database lacks, then exit',
    options: {},
    positionals: 0,
    async run(ctx) {
      // Opening the database applies them (as for every command); say which.
      const applied = await ctx.migrationsApplied();
      ctx.io.out(applied.length === 0 ? 'The database schema is current: nothing to apply.\n' : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}.\n`);
    },
  },
};

