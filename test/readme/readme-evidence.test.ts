// The CLI's evidence examples in README.md ("Evidence in the CLI") and sdk/README.md (CLI): each ```sh block runs as
// written in a fresh folder, `docextract` being the CLI from source and `127.0.0.1:8080` the test's service, and
// prints exactly the lines its `# =>` comments show. The one thing matched by form is a confidence (a number from 0
// to 1): the calibration is refitted as the labelled sets grow, as ids are matched by form in the contract's examples.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The ```sh blocks of a README's section that call the CLI. */
function cliBlocks(file: string, heading: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no section ${heading}`);
  // The section ends at the next heading of its level or above, outside code blocks.
  const level = heading.indexOf(' ');
  let end = start + 1, fenced = false;
  for (; end < lines.length; end++) {
    if (lines[end]!.startsWith('```')) fenced = !fenced;
    const m = /^(#+) /.exec(lines[end]!);
    if (!fenced && m && m[1]!.length <= level) break;
  }
  const section = lines.slice(start, end).join('\n');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('# => '));
}

const CONFIDENCE = /^(0|1|0\.\d+)( withheld)?$/;

/** The cells of a line: a table's (split at two spaces or more) or a CSV row's (RFC 4180 quoting). */
function cells(line: string, csv: boolean): string[] {
  if (!csv) return line.split(/\s{2,}/);
  const out: string[] = [];
  let field = '', quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) { if (c === '"' && line[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c; }
    else if (c === '"') quoted = true;
    else if (c === ',') { out.push(field); field = ''; }
    else field += c;
  }
  return [...out, field];
}

/** A printed line against the line shown: equal, a confidence (a number, maybe `withheld` beside it) by form. */
function sameLine(printed: string, shown: string): boolean {
  const csv = !/\s{2,}/.test(shown) && shown.includes(',');
  const p = cells(printed, csv), s = cells(shown, csv);
  if (p.length !== s.length) return false;
  return p.every((cell, i) => cell === s[i] || (CONFIDENCE.test(s[i]!) && CONFIDENCE.test(cell) && cell.endsWith(' withheld') === s[i]!.endsWith(' withheld')));
}

describe("the READMEs' CLI evidence examples", () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_readme_evidence', plan: 'starter' } });
    key = (await s.createKey('acct_readme_evidence')).key;
  });
  afterAll(async () => { await s.close(); });

  it.each([
    ['README.md', '## Evidence in the CLI'],
    ['sdk/README.md', '## CLI'],
  ])('%s %s: prints what it shows', async (file, heading) => {
    const blocks = cliBlocks(file, heading);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const dir = mkdtempSync(join(tmpdir(), 'readme-evidence-'));
      const script = block.replace(/^# => .*\n?/gm, '').replaceAll('http://127.0.0.1:8080', s.baseUrl);
      const prelude = `set -euo pipefail\ndocextract() { node --import ${join(root, 'node_modules/tsx/dist/loader.mjs')} ${join(root, 'sdk/src/cli.ts')} "$@"; }\n`;
      try {
        const { stdout } = await promisify(execFile)('bash', ['-c', prelude + script], {
          cwd: dir, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH!, DOCEXTRACT_API_KEY: key, DOCEXTRACT_BASE_URL: s.baseUrl },
        });
        const printed = stdout.trimEnd().split('\n');
        if (process.env.SHOW_README_OUTPUT) process.stdout.write(`${stdout}\n`);
        const shown = [...block.matchAll(/^# => (.*)$/gm)].map((m) => m[1]!);
        expect(printed.length).toBe(shown.length);
        printed.forEach((line, i) => { if (!sameLine(line, shown[i]!)) expect(line).toBe(shown[i]); });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);

  it("shows the dashboard's Try a document page, desktop and phone, as saved by its browser test", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const shot of ['docs/dashboard-try.png', 'docs/dashboard-try-phone.png']) {
      expect(readme).toContain(`(${shot})`);
      expect(readFileSync(join(root, shot)).subarray(1, 4).toString()).toBe('PNG');
    }
  });
});
