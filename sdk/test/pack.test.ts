// The SDK as partners get it: a tarball made by `npm pack` in a checkout, installed into an empty project with its own
// dependencies only (npm's cache first: --prefer-offline), imported by plain Node and by a strict TypeScript app, and
// its `docextract` command run. The Install lines of sdk/README.md run as written.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

// The app calls the server in this process: run it without blocking the event loop.
const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const npm = (args: string[], cwd: string) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const sdkPackage = JSON.parse(readFileSync(join(root, 'sdk/package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };

/** The ```sh block under the README's "## Install", as its commands, each with the comment (place) it follows. */
function installLines(): Array<{ place: string; command: string; expected: string[] }> {
  const readme = readFileSync(join(root, 'sdk/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const lines: Array<{ place: string; command: string; expected: string[] }> = [];
  let place = '';
  for (const line of block.split('\n').filter(Boolean)) {
    if (line.startsWith('# => ')) lines.at(-1)!.expected.push(line.slice(5));
    else if (line.startsWith('# ')) place = line;
    else lines.push({ place, command: line, expected: [] });
  }
  return lines;
}

describe("installing the SDK as its README's Install says", () => {
  // A home of its own (the README's ~), npm's cache the usual one; the project an empty folder outside any checkout.
  const home = mkdtempSync(join(tmpdir(), 'sdk-home-'));
  const project = mkdtempSync(join(tmpdir(), 'sdk-project-'));
  const env = { PATH: process.env.PATH!, HOME: home, npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'), npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const outputs: string[] = [];
  beforeAll(() => {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-project', private: true, type: 'module' }));
    for (const { place, command, expected } of installLines()) {
      const cwd = /docextract checkout/.test(place) ? root : /your project/.test(place) ? project : null;
      if (!cwd) throw new Error(`the README's Install says not where to run: ${command}`);
      const out = execFileSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      for (const line of expected) expect(out).toContain(line);
      outputs.push(out);
    }
  }, 240_000);
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  it('the tarball holds the compiled SDK, its types, its README and package.json, and no sources or tests', () => {
    const tarball = join(home, 'docextract-sdk', `docextract-sdk-${sdkPackage.version}.tgz`);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(files.filter((f) => !/^package\/(dist\/[\w-]+\.(js|d\.ts)|bin\/docextract\.js|README\.md|package\.json)$/.test(f))).toEqual([]);
    for (const f of ['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/cli.js', 'package/bin/docextract.js']) expect(files).toContain(f);
  });

  it('installs with its own run-time dependencies only', () => {
    const installed = JSON.parse(execFileSync('npm', ['ls', '--all', '--json'], { cwd: project, env, encoding: 'utf8' })) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> };
    expect(Object.keys(installed.dependencies)).toEqual(['@docextract/sdk']);
    expect(Object.keys(installed.dependencies['@docextract/sdk']!.dependencies ?? {}).sort()).toEqual(Object.keys(sdkPackage.dependencies).sort());
    // A package of its own, not a link into the checkout.
    expect(existsSync(join(project, 'node_modules/@docextract/sdk/dist/index.js'))).toBe(true);
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('json-schema-to-ts');
  });

  it('npx docextract --help runs the installed command', () => {
    expect(outputs.at(-1)).toContain('usage:');
    expect(outputs.at(-1)).toContain('docextract extract <invoice|receipt|contract|job-posting|meeting-notes|renewal|custom> <file>');
  });

  it('plain Node imports it in the project', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('@docextract/sdk'); console.log(typeof m.DocExtract, typeof m.verifyWebhook)"], { cwd: project, encoding: 'utf8', env });
    expect(stdout.trim()).toBe('function function');
  });
});

describe('the packed SDK in a TypeScript app', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s.close(); });

  it('installs from its tarball into a TypeScript app, compiles strictly, and calls the service', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
    npm(['pack', '--pack-destination', out], join(root, 'sdk'));
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    const app = mkdtempSync(join(tmpdir(), 'sdk-app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', join(out, tarball)], app);
    writeFileSync(join(app, 'main.ts'), `import { DocExtract, DocExtractError } from '@docextract/sdk';
const client = new DocExtract({ baseUrl: process.argv[2], apiKey: process.argv[3] });
const answer = await client.extract.invoice({ text: 'Invoice INV-1\\nTotal: $5.00' });
const total: number | null = answer.data.total;
// A custom schema's answer is typed from the schema (json-schema-to-ts's FromSchema, inlined in the package's types).
const event = await client.extract.custom('Spring Meetup, 120 places', { type: 'object', properties: { capacity: { type: 'integer' } } } as const);
const capacity: number | null = event.data.capacity;
// @ts-expect-error the member is typed from the schema (a number), not left as any
const notText: string = event.data.capacity;
void capacity; void notText;
try {
  await client.extract.invoice({ text: '' });
} catch (e) {
  if (e instanceof DocExtractError) console.log(JSON.stringify({ model: answer.model, total, code: e.code }));
}
`);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', types: ['node'], typeRoots: [join(root, 'node_modules/@types')] }, files: ['main.ts'] }));
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
    const { key } = await s.createKey('acct_pack');
    const printed = (await run(process.execPath, [join(app, 'dist/main.js'), s.baseUrl, key], { encoding: 'utf8' })).stdout;
    expect(JSON.parse(printed.trim())).toMatchObject({ model: 'local-rules-1', code: 'invalid_request' });
    const bin = (await run(join(app, 'node_modules/.bin/docextract'), ['account'], { encoding: 'utf8', env: { PATH: process.env.PATH, DOCEXTRACT_API_KEY: key, DOCEXTRACT_BASE_URL: s.baseUrl } })).stdout;
    expect(JSON.parse(bin).id).toBe('acct_pack');
    // Types only: json-schema-to-ts (and its @babel/runtime) are not installed with the SDK.
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('json-schema-to-ts');
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('@babel');
  }, 180_000);
});
