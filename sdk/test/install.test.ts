// The SDK and its CLI right after `npm install` in the repository (issue 30, item 2): the install builds sdk/dist, so
// plain Node imports the SDK, and `npx docextract` runs the CLI from the repository's root (the SDK workspace's bin, linked by npm),
// its help naming the address it uses. The packed SDK in an empty folder is sdk/test/pack.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: Record<string, string>; scripts: Record<string, string> };

describe('the SDK and CLI after npm install', () => {
  it('npm install builds sdk/dist (postinstall), with an executable CLI', () => {
    expect(pkg.scripts.postinstall).toContain('node scripts/build-sdk.mjs');
    for (const file of ['index.js', 'index.d.ts', 'cli.js']) expect(existsSync(join(root, 'sdk/dist', file))).toBe(true);
    expect(statSync(join(root, 'sdk/dist/cli.js')).mode & 0o111).not.toBe(0);
  });

  it('plain node imports @docextract/sdk from the repository', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('@docextract/sdk'); console.log(typeof m.DocExtract, typeof m.DocExtractError)"], { cwd: root, encoding: 'utf8' });
    expect(stdout.trim()).toBe('function function');
  });

  it('npx docextract --help runs the linked bin from the root, with no install or build step', async () => {
    // The root package has no bin of its own: npm exec would then install the project into its npx cache (running its
    // postinstall, which builds everything) on every call. The command is the SDK workspace's bin, a committed shim
    // (npm links no bin whose file is still missing when it links, and sdk/dist is built after).
    expect(pkg.bin).toBeUndefined();
    expect(realpathSync(join(root, 'node_modules/.bin/docextract'))).toBe(join(root, 'sdk/bin/docextract.js'));
    // A fresh npm cache: running the command installs nothing into it (no _npx tree), and needs no network.
    const cache = mkdtempSync(join(tmpdir(), 'npx-cache-'));
    const { stdout } = await run('npx', ['docextract', '--help'], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? root, npm_config_cache: cache, npm_config_offline: 'true' } });
    expect(stdout).toContain('usage:');
    expect(stdout).toContain('DOCEXTRACT_BASE_URL (default http://127.0.0.1:8080, the service npm start runs)');
    expect(stdout).not.toContain('${');
    expect(existsSync(join(cache, '_npx'))).toBe(false);
  }, 120_000);
});
