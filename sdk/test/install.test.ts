// The SDK and its CLI right after `npm install` in the repository (issue 30, item 2): the install builds sdk/dist, so
// plain Node imports the SDK, and `npx docextract` runs the CLI from the repository's root (a bin of the root package),
// its help naming the address it uses. The packed SDK in an empty folder is sdk/test/pack.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
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

  it('npx docextract --help runs the CLI from the root, and the help names the real default address', async () => {
    expect(pkg.bin).toEqual({ docextract: 'sdk/dist/cli.js' });
    const { stdout } = await run('npx', ['--no-install', 'docextract', '--help'], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? root } });
    expect(stdout).toContain('usage:');
    expect(stdout).toContain('DOCEXTRACT_BASE_URL (default http://127.0.0.1:8080, the service npm start runs)');
    expect(stdout).not.toContain('${');
  }, 60_000);
});
