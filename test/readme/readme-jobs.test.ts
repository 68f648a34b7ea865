// README.md's "Jobs and webhooks" example, run as written against a fresh service with a worker (only
// `http://127.0.0.1:8080` is pointed at the test's port): what it prints must be its `# =>` lines, exactly; and the
// documents it links exist.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, TEST_SECRET, type TestServer } from '../../server/test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const start = readme.indexOf('## Jobs and webhooks');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe("README's jobs example", () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: true });
    dir = mkdtempSync(join(tmpdir(), 'readme-jobs-'));
  });
  afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

  it('links docs/jobs.md and docs/deploy.md, which exist', () => {
    expect(section).toContain('[docs/jobs.md](docs/jobs.md)');
    expect(section).toContain('[docs/deploy.md](docs/deploy.md)');
    expect(existsSync(join(root, 'docs/jobs.md'))).toBe(true);
    expect(existsSync(join(root, 'docs/deploy.md'))).toBe(true);
  });

  it('prints what its # => lines say', async () => {
    expect(blocks).toHaveLength(1);
    const script = blocks[0]!.replaceAll('http://127.0.0.1:8080', s.baseUrl);
    writeFileSync(join(dir, 'jobs.sh'), `set -euo pipefail\n${script}`);
    const { stdout } = await promisify(execFile)('bash', [join(dir, 'jobs.sh')], {
      cwd: root, encoding: 'utf8', timeout: 120_000,
      env: { ...process.env, DASHBOARD_JWT_SECRET: TEST_SECRET, DATA_DIR: dir, NODE_ENV: 'development', ENV_FILE: '' },
    });
    const promised = [...blocks[0]!.matchAll(/^# => (.*)$/gm)].map((m) => m[1]);
    expect(stdout.trimEnd().split('\n')).toEqual(promised);
  }, 150_000);
});
