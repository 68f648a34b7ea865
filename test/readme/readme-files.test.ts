// docs/files.md (linked from the README): its curl -F examples run as written (a rendered invoice.pdf in the current
// folder, an API key in $KEY, only `http://127.0.0.1:8080` pointed at the test's port), each answer holding what its
// `# =>` shows.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { textPdf } from '../../server/test/support/render-documents.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const section = readFileSync(join(root, 'docs/files.md'), 'utf8');
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-0418\nInvoice Date: April 18, 2026\n\nTotal due: $4,500.00';

describe("docs/files.md's examples", () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_readme_files', plan: 'starter' } });
    dir = mkdtempSync(join(tmpdir(), 'readme-files-'));
    writeFileSync(join(dir, 'invoice.pdf'), await textPdf(INVOICE));
  });
  afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

  it('runs the curl -F examples as written and each answer holds what its `# =>` line shows', async () => {
    expect(blocks).toHaveLength(1);
    const block = blocks[0]!;
    const commands = block.split(/^# => .*$/m).map((c) => c.trim()).filter(Boolean);
    const promised = [...block.matchAll(/^# => (.*)$/gm)].map((m) => m[1]!);
    expect(commands).toHaveLength(promised.length);
    const { key } = await s.createKey('acct_readme_files');
    for (const [i, command] of commands.entries()) {
      const { stdout } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${command.replaceAll('http://127.0.0.1:8080', s.baseUrl)}`], {
        cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KEY: key },
      });
      const answer = JSON.parse(stdout) as Record<string, unknown>;
      // The `# =>` line is a fragment of the answer: its members, exactly.
      expect(answer).toMatchObject(JSON.parse(`{${promised[i]}}`));
      expect(answer).toMatchObject({ model: 'local-rules-1', source: { method: 'pdf_text' } });
    }
  });
});
