import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

// The app calls the server in this process: run it without blocking the event loop.
const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const npm = (args: string[], cwd: string) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the packed SDK', () => {
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
