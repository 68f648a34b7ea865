// docs/renewals.md's example (the README links it), run as written against a fresh service (only
// `http://127.0.0.1:8080` is pointed at the test's port): what it prints must be its `# =>` lines, in order, exactly.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, TEST_SECRET, type TestServer } from '../../server/test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const section = readFileSync(join(root, 'docs/renewals.md'), 'utf8');
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe("README's renewal tracking example", () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    dir = mkdtempSync(join(tmpdir(), 'readme-renewals-'));
  });
  afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

  it('has one shell block, and shows the screenshot it promises', () => {
    expect(blocks).toHaveLength(1);
    // The page sits beside its screenshot in docs/.
    expect(section).toContain('![Renewals page](dashboard-renewals.png)');
    expect(readFileSync(join(root, 'docs/dashboard-renewals.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('prints what its # => lines say', async () => {
    const script = blocks[0]!.replaceAll('http://127.0.0.1:8080', s.baseUrl);
    writeFileSync(join(dir, 'renewals.sh'), `set -euo pipefail\n${script}`);
    const { stdout } = await promisify(execFile)('bash', [join(dir, 'renewals.sh')], {
      cwd: root, encoding: 'utf8', timeout: 120_000,
      env: { ...process.env, DASHBOARD_JWT_SECRET: TEST_SECRET, DATA_DIR: dir, NODE_ENV: 'development' },
    });
    const promised = [...blocks[0]!.matchAll(/^# => (.*)$/gm)].map((m) => m[1]);
    expect(promised.length).toBeGreaterThan(3);
    expect(stdout.trimEnd().split('\n')).toEqual(promised);
  });
});
