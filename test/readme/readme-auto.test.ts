// docs/documents.md's "An example" (moved there from the README, which links the page): its curl -F examples run as
// written (a contract.docx and a mail.eml with invoice.pdf attached in the current folder, an API key in $KEY, only
// `http://127.0.0.1:8080` pointed at the test's port), each answer holding what its `# =>` line shows.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { docxFile, emlFile } from '../../server/test/support/office-files.js';
import { textPdf } from '../../server/test/support/render-documents.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(root, 'docs/documents.md'), 'utf8');
const start = page.indexOf('## An example');
if (start < 0) throw new Error('docs/documents.md has no section "## An example"');
const section = page.slice(start, page.indexOf('\n## ', start + 3));
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-0418\nInvoice Date: April 18, 2026\n\nTotal due: $4,500.00';
const CONTRACT = ['MUTUAL NON-DISCLOSURE AGREEMENT', 'This Agreement is made on 1 March 2026 between Thames Analytics Ltd ("Discloser") and Orbital Labs Inc. ("Recipient").', '1. The Recipient shall keep the Confidential Information secret.', '2. This Agreement is governed by the laws of England and Wales.'];

describe("docs/documents.md's Office files, e-mail and packets example", () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_readme_auto', plan: 'starter' } });
    dir = mkdtempSync(join(tmpdir(), 'readme-auto-'));
    writeFileSync(join(dir, 'contract.docx'), await docxFile(CONTRACT));
    writeFileSync(join(dir, 'mail.eml'), await emlFile({ from: 'billing@acme-cloud.example', to: 'ap@brightline.example', subject: 'Invoice INV-0418', text: 'Hello,\n\nplease find our invoice attached.\n\nAna', attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] }));
  });
  afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

  it('runs the curl -F examples as written and each answer holds what its `# =>` line shows', async () => {
    expect(blocks).toHaveLength(1);
    const block = blocks[0]!;
    const commands = block.split(/^# => .*$/m).map((c) => c.trim()).filter(Boolean);
    const promised = [...block.matchAll(/^# => (.*)$/gm)].map((m) => m[1]!);
    expect(commands).toHaveLength(2);
    expect(promised).toHaveLength(2);
    const { key } = await s.createKey('acct_readme_auto');
    for (const [i, command] of commands.entries()) {
      const { stdout } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${command.replaceAll('http://127.0.0.1:8080', s.baseUrl)}`], {
        cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KEY: key },
      });
      // The `# =>` line is a fragment of the answer: its members, exactly.
      expect(JSON.parse(stdout)).toMatchObject(JSON.parse(`{${promised[i]}}`));
    }
  });
});
