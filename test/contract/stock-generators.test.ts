// The published document through the tools partner teams use, stock and unpatched, run from a folder of their own
// (so nothing of this repository's configuration applies): openapi-typescript's CLI must give exactly the types the
// server and SDK are built on, and @hey-api/openapi-ts must give a client whose typical use type-checks.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const published = join(root, 'generated/openapi.json');
const bin = (path: string) => join(root, 'node_modules', path);
const run = (args: string[], cwd: string) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });

/** A generated file without its leading comment block (each tool writes its own banner). */
const withoutBanner = (text: string) => text.replace(/^(?:\/\/[^\n]*\n|\/\*\*[\s\S]*?\*\/\n)\s*/, '');

describe('stock generators on the published document', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'stock-generators-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('openapi-typescript (CLI, no options) gives exactly generated/openapi.d.ts, so the SDK and its examples are typed by stock output', () => {
    run([bin('openapi-typescript/bin/cli.js'), published, '-o', join(dir, 'stock.d.ts')], dir);
    const stock = readFileSync(join(dir, 'stock.d.ts'), 'utf8');
    expect(withoutBanner(stock)).toBe(withoutBanner(readFileSync(join(root, 'generated/openapi.d.ts'), 'utf8')));
    // Free-form objects are open objects, not `Record<string, never>`.
    for (const name of ['FreeFormObject', 'CustomData']) expect(stock).toMatch(new RegExp(`\\b${name}: \\{\\s*\\[key: string\\]: unknown;\\s*\\}`));
    // The rules once only in prose (issue 30): a document is its text or a file, a file's media type is one of a list,
    // a form's file part is binary (not `unknown`), and a key needs no body.
    expect(stock).toContain('DocumentInput: components["schemas"]["DocumentText"] | components["schemas"]["DocumentFile"];');
    expect(stock).toMatch(/DocumentFile: \{[^}]*content: string;[^}]*mediaType: components\["schemas"\]\["FileMediaType"\];/);
    expect(stock).toMatch(/FileMediaType: "application\/pdf" \| "image\/png" \|/);
    expect(stock).toMatch(/ExtractFileForm: \{[^}]*file: string;[^}]*mediaType\?: components\["schemas"\]\["FileMediaType"\];/);
    expect(stock).toMatch(/createKey: \{[\s\S]*?requestBody\?: \{/);
  });

  it('@hey-api/openapi-ts generates a client whose typical calls type-check', () => {
    run([bin('@hey-api/openapi-ts/bin/run.js'), '-i', published, '-o', join(dir, 'client')], dir);
    writeFileSync(join(dir, 'usage.ts'), `
import { extractCustom, extractBatch, extractInvoice, extractRenewal, listKeys, getAccount, createKey } from './client/index';
import type { ExtractFileForm } from './client/index';

export async function usage(): Promise<void> {
  // A custom schema with the members JSON Schema writers use (description, required, $defs) is accepted.
  const custom = await extractCustom({
    body: {
      document: { text: 'Spring Meetup\\nCapacity: 120 places' },
      schema: {
        type: 'object',
        description: 'An event listing',
        required: ['eventName'],
        properties: { eventName: { type: 'string' }, capacity: { $ref: '#/$defs/count' } },
        $defs: { count: { type: 'integer', minimum: 0 } },
      },
    },
    headers: { 'x-api-key': 'dx_live_example' },
  });
  const capacity: unknown = custom.data?.data.capacity;
  const batch = await extractBatch({ body: { items: [{ id: 'a', document: { text: 'TOTAL 1.00' }, kind: 'receipt' }] } });
  for (const r of batch.data?.results ?? []) console.log(r.id, r.ok ? r.data : r.error.code);
  const renewal = await extractRenewal({ body: { document: { text: 'Vendor: X' } } });
  const status: 'confirmed' | 'needs_review' | 'no_terms_found' | undefined = renewal.data?.overall_status;
  const id: string | undefined = renewal.data?.document.vendorRenewalId;
  const keys = await listKeys();
  const first: string | undefined = keys.data?.keys[0]?.id;
  const account = await getAccount();
  const active: number | undefined = account.data?.activeKeyCount;
  console.log(capacity, status, id, first, active);

  // Rules that were prose (issue 30, items 9 and 10), now in the types: a file's media type is one of those read,
  // a form's file is binary, a key needs no body.
  await extractInvoice({ body: { document: { content: 'JVBERi0=', mediaType: 'application/pdf' } } });
  // @ts-expect-error a media type that is not read
  await extractInvoice({ body: { document: { content: 'UEsDBA==', mediaType: 'application/msword' } } });
  // @ts-expect-error a file needs its media type
  await extractInvoice({ body: { document: { content: 'JVBERi0=' } } });
  const form: ExtractFileForm = { file: new Blob(['%PDF-']), mediaType: 'text/plain', filename: 'a.txt' };
  // @ts-expect-error the file part is binary, not any value
  const notAFile: ExtractFileForm = { file: 42 };
  // @ts-expect-error the form's media type is one of those read
  const badType: ExtractFileForm = { file: new Blob(['x']), mediaType: 'image/gif' };
  const created = await createKey({ headers: { authorization: 'Bearer token' } });
  console.log(form, notAFile, badType, created.data?.id);
}
`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], strict: true, noEmit: true, skipLibCheck: true, types: [] },
      include: ['usage.ts', 'client/**/*.ts'],
    }));
    expect(() => run([bin('typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], dir)).not.toThrow();
  });
});
