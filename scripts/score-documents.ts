// Scores the offline engine on the public corpus sent as files instead of text: each document rendered to a PDF with
// a text layer, a two-column PDF, and a scanned-looking PNG at 300 dpi (slightly rotated, noisy paper), read back
// through the service's own document reader (pdf.js text layer, tesseract.js OCR) and extracted as the service does.
// Same labels, same scorer (server/test/local-engine/accuracy/score.ts) as `scripts/score-local.ts`.
//   npx tsx scripts/score-documents.ts [--corpus DIR] [--route invoice] [--keep DIR] [--json]
// The renderings are made by server/test/support/render-documents.ts (deterministic: the same bytes every run).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Documents } from '../server/src/documents/documents.js';
import type { FileMediaType } from '../server/src/documents/media-types.js';
import { scoreSet, type SetScore } from '../server/test/local-engine/accuracy/score.js';
import { scanPng, textPdf } from '../server/test/support/render-documents.js';

// The reader's threads run the compiled server (server/dist): build it from the sources being measured.
execFileSync(process.execPath, [fileURLToPath(new URL('./build-server.mjs', import.meta.url))], { stdio: 'ignore' });

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const corpus = opt('corpus') ?? fileURLToPath(new URL('../../shared/corpus', import.meta.url));
const onlyRoute = opt('route');
const work = opt('keep') ?? mkdtempSync(join(tmpdir(), 'docextract-renderings-'));

/** A Letter page at 12 pt leading holds this many lines: a longer document is scanned as several pages. */
const LINES_PER_SCAN = 58;

type Rendering = 'pdf' | 'pdf-2col' | 'scan-300dpi';
const RENDERINGS: Record<Rendering, (text: string, seed: number) => Promise<{ bytes: Uint8Array; mediaType: FileMediaType }[]>> = {
  pdf: async (text) => [{ bytes: await textPdf(text), mediaType: 'application/pdf' }],
  'pdf-2col': async (text) => [{ bytes: await textPdf(text, { columns: 2 }), mediaType: 'application/pdf' }],
  'scan-300dpi': async (text, seed) => {
    const lines = text.split('\n');
    const pages: { bytes: Uint8Array; mediaType: FileMediaType }[] = [];
    for (let i = 0; i < Math.max(1, lines.length); i += LINES_PER_SCAN) {
      pages.push({ bytes: await scanPng(lines.slice(i, i + LINES_PER_SCAN).join('\n'), { dpi: 300, rotateDeg: seed % 2 ? 0.6 : -0.4, seed }), mediaType: 'image/png' });
    }
    return pages;
  },
};

const documents = new Documents();
const controller = new AbortController();
const seconds: Record<string, number[]> = {};

async function readBack(files: { bytes: Uint8Array; mediaType: FileMediaType }[], rendering: string): Promise<string> {
  const texts: string[] = [];
  for (const f of files) {
    const started = performance.now();
    const prepared = await documents.prepareFile(f.bytes, f.mediaType, { accountId: 'score' });
    texts.push((await documents.read(prepared, { accountId: 'score', signal: controller.signal })).text);
    (seconds[rendering] ??= []).push((performance.now() - started) / 1000);
  }
  return texts.join('\n');
}

const routes = readdirSync(corpus, { withFileTypes: true }).filter((d) => d.isDirectory() && (!onlyRoute || d.name === onlyRoute)).map((d) => d.name);
try {
  for (const rendering of Object.keys(RENDERINGS) as Rendering[]) {
    let seed = 1;
    for (const route of routes) {
      const out = join(work, rendering, route);
      mkdirSync(out, { recursive: true });
      for (const file of readdirSync(join(corpus, route)).filter((f) => f.endsWith('.txt')).sort()) {
        const slug = file.slice(0, -4);
        const text = readFileSync(join(corpus, route, file), 'utf8');
        writeFileSync(join(out, file), await readBack(await RENDERINGS[rendering](text, seed++), rendering));
        for (const extra of [`${slug}.json`, `${slug}.schema.json`]) if (existsSync(join(corpus, route, extra))) cpSync(join(corpus, route, extra), join(out, extra));
      }
    }
  }
} finally {
  await documents.close();
}

const report: Record<string, Omit<SetScore, 'misses'>> = {};
report.text = (({ misses: _m, ...s }) => s)(scoreSet(corpus, { route: onlyRoute }));
for (const rendering of Object.keys(RENDERINGS)) report[rendering] = (({ misses: _m, ...s }) => s)(scoreSet(join(work, rendering), { route: onlyRoute }));
if (!opt('keep')) rmSync(work, { recursive: true, force: true });

if (argv.includes('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const names = Object.keys(report);
  console.log(`| route | ${names.join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  for (const route of routes) console.log(`| ${route} | ${names.map((n) => report[n]!.routes[route]?.f1.toFixed(3) ?? '-').join(' | ')} |`);
  console.log(`| **overall** | ${names.map((n) => `**${report[n]!.f1.toFixed(3)}** (p ${report[n]!.precision.toFixed(3)})`).join(' | ')} |`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const [r, xs] of Object.entries(seconds)) console.log(`${r}: ${xs.length} files read, median ${(median(xs) * 1000).toFixed(0)} ms, max ${(Math.max(...xs) * 1000).toFixed(0)} ms`);
}
