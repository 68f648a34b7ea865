#!/usr/bin/env node
// docextract: the command line of the SDK.
//   docextract extract <kind> <file> [--schema schema.json] [--evidence | --format json|csv] [--confidence] [--min-confidence N]
//   docextract batch <folder> (--kind <kind> | --kind auto [--fallback-kind <kind>] | --schema schema.json) [--out results.jsonl]
//       [--format jsonl|csv] [--confidence] [--min-confidence N]
//     (--kind auto: each file through /v1/extract/auto, a line a document found in it)
//   docextract jobs <folder> (--kind <kind> | --kind auto [--fallback-kind <kind>] | --schema schema.json) [--out results.jsonl]
//   docextract classify <file|folder> [--kinds k1,k2]
//   docextract eval <folder> [--route <route>] [--model <model>] [--format table|json]
//   docextract account
//   docextract renewals [--all | --status <status>]
// Reads DOCEXTRACT_API_KEY and DOCEXTRACT_BASE_URL.
import { readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { DocExtract, type BatchItemInput } from './client.js';
import { confidenceMap, csvErrorRow, csvHeader, csvRows, evidenceTable } from './cli-evidence.js';
import { autoLines, FOLDER_EXTENSIONS, listFolder, planCalls, sendableType, type FolderFile } from './cli-files.js';
import { runJobs } from './cli-jobs.js';
import { corpusExamples, evaluateCorpus, evaluationTable } from './cli-eval.js';
import { DocExtractError } from './errors.js';
import type { components } from './contract.js';

type Kind = components['schemas']['ExtractionKind'];
const KINDS: Kind[] = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal'];
/** Where `npm start` serves: the CLI's default, said on every run so a missing DOCEXTRACT_BASE_URL is never a mystery. */
const LOCAL_URL = 'http://127.0.0.1:8080';
/** The most bytes of files one batch call carries: in base64, with the JSON around it, within the service's 15 MB body. */
const FILE_BYTES_PER_CALL = 10 * 1024 * 1024;
const USAGE = `usage:
  docextract extract <${[...KINDS, 'custom'].join('|')}> <file> [--schema schema.json] [--evidence | --format json|csv] [--confidence]
      --evidence prints each value with its confidence, page and quote, as a table
  docextract batch <folder> (--kind <kind> | --kind auto [--fallback-kind <kind>] | --schema schema.json) [--out results.jsonl]
      [--format jsonl|csv] [--confidence]
      sends the folder's ${FOLDER_EXTENSIONS.join(' ')} files; --kind auto sends each file to the service's
      classifier (/v1/extract/auto: the documents inside a file found, classified and extracted, a line each), and
      --fallback-kind extracts a file whose documents are all unclassified (other) with that kind
  extract and batch: --format csv writes one row per value (file, field, value); --confidence adds each value's
      confidence (JSON: a "confidence" member by field; CSV: confidence, withheld, page and quote columns, withheld
      values included); --min-confidence N (0 to 1) withholds values under N (the service's default 0.5)
  docextract jobs <folder> (--kind <kind> | --kind auto [--fallback-kind <kind>] | --schema schema.json) [--out results.jsonl]
      sends a folder of any size as jobs (up to 1,000 documents a call) and follows each to its end, with a
      progress bar per document; results as JSON lines in the order they finish; --kind auto first classifies each
      file (/v1/classify) and sends it as a job of its kind (a file of no fixed kind: --fallback-kind, or it fails)
  docextract classify <file|folder> [--kinds invoice,receipt,...]
      what kind of document each file is (/v1/classify): JSON for a file, a JSON line a file for a folder
  extract and classify send only ${FOLDER_EXTENSIONS.join(' ')} files: another type is refused before anything is sent
  docextract eval <folder> [--route <route>] [--model <model>] [--format table|json]
      scores the service (or the --model named) on a folder in the corpus format: <route>/<slug>.txt (or a file the
      service reads) beside <slug>.json, the expected data; per route and field precision, recall and F1, ECE, AUROC,
      and precision/recall at 0.5-0.9 (charged as extraction)
  docextract account
  docextract renewals [--all | --status <status>]   upcoming cancellation deadlines as a table
environment: DOCEXTRACT_API_KEY (required), DOCEXTRACT_BASE_URL (default ${LOCAL_URL}, the service npm start runs)`;

class UsageError extends Error {}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${file} as JSON: ${(e as Error).message}`);
  }
}

/** The path of a file that exists, for the SDK to read (a missing one is a usage error, as for text). */
function readable(file: string): string {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
    return file;
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
}

/** A file `extract` or `classify` may send: one that exists, of a type the service reads (else nothing is sent). */
function sendable(file: string): string {
  readable(file);
  if (!sendableType(basename(file))) throw new UsageError(`not sending ${basename(file)}: the service reads ${FOLDER_EXTENSIONS.join(' ')} files (nothing was sent or charged)`);
  return file;
}

/** Whether the progress bar holds the current stderr line (a message then starts on a line of its own). */
let barOnLine = false;

function progress(done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} documents${done === total ? '\n' : ''}`);
  barOnLine = done !== total;
}

/** A line on stderr, never glued to the progress bar. */
function say(line: string): void {
  process.stderr.write(`${barOnLine ? '\n' : ''}${line}\n`);
  barOnLine = false;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { schema: { type: 'string' }, kind: { type: 'string' }, 'fallback-kind': { type: 'string' }, out: { type: 'string' }, status: { type: 'string' }, all: { type: 'boolean' }, evidence: { type: 'boolean' }, confidence: { type: 'boolean' }, format: { type: 'string' }, 'min-confidence': { type: 'string' }, kinds: { type: 'string' }, route: { type: 'string' }, model: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const apiKey = process.env.DOCEXTRACT_API_KEY;
  if (!apiKey) throw new UsageError('set DOCEXTRACT_API_KEY to your API key');
  baseUrl = process.env.DOCEXTRACT_BASE_URL || LOCAL_URL;
  if (!process.env.DOCEXTRACT_BASE_URL) say(`docextract: using ${LOCAL_URL} (set DOCEXTRACT_BASE_URL for another service)`);
  const client = new DocExtract({ apiKey, baseUrl });
  const [command, ...rest] = positionals;

  if (command === 'eval' && rest.length === 1) {
    const format = values.format ?? 'table';
    if (format !== 'table' && format !== 'json') throw new UsageError('eval --format takes table or json');
    let examples;
    try {
      examples = corpusExamples(rest[0]!, values.route);
    } catch (e) {
      throw new UsageError(`cannot read ${rest[0]} as a corpus folder: ${(e as Error).message}`);
    }
    if (!examples.length) throw new UsageError(`${rest[0]} holds no labelled document (<route>/<slug>.txt beside <slug>.json)`);
    const evaluation = await evaluateCorpus(client, examples, values.model, (done) => progress(done, examples.length));
    process.stdout.write(`${format === 'json' ? JSON.stringify(evaluation, null, 2) : evaluationTable(evaluation, examples.map((e) => e.name))}\n`);
    return 0;
  }

  if (command === 'account' && rest.length === 0) {
    process.stdout.write(`${JSON.stringify(await client.account.get(), null, 2)}\n`);
    return 0;
  }

  if (command === 'renewals' && rest.length === 0) {
    const statuses = ['upcoming', 'window_closing', 'deadline_passed', 'needs_review', 'cancelled'] as const;
    type Status = (typeof statuses)[number];
    if (values.status && !(statuses as readonly string[]).includes(values.status)) throw new UsageError(`unknown status ${values.status}; one of ${statuses.join(', ')}`);
    if (values.status && values.all) throw new UsageError('renewals takes --all or --status, not both');
    // By default the deadlines still ahead (today included), soonest first: what needs acting on.
    const shown: Status[] | null = values.all ? null : values.status ? [values.status as Status] : ['window_closing', 'upcoming'];
    const rows: string[][] = [];
    for await (const r of client.renewals.listAll(values.status ? { status: values.status as Status } : {})) {
      if (shown && !shown.includes(r.status)) continue;
      const notice = r.noticePeriod ? `${r.noticePeriod.amount} ${r.noticePeriod.unit}` : '-';
      rows.push([r.cancellationDeadline ?? '-', r.daysLeft === null ? '-' : String(r.daysLeft), r.status, r.vendorName ?? '-', r.product ?? '-', r.terms.renewalDate.value ?? '-', notice]);
    }
    if (rows.length === 0) {
      say(values.all ? 'docextract: no vendor renewals yet' : 'docextract: no cancellation deadlines ahead');
      return 0;
    }
    process.stdout.write(`${table(['DEADLINE', 'DAYS LEFT', 'STATUS', 'VENDOR', 'PRODUCT', 'RENEWS', 'NOTICE'], rows)}\n`);
    return 0;
  }

  // The request's threshold, for extract and batch.
  const minConfidence = values['min-confidence'] === undefined ? undefined : Number(values['min-confidence']);
  if (minConfidence !== undefined && !(values['min-confidence']!.trim() !== '' && minConfidence >= 0 && minConfidence <= 1)) throw new UsageError('--min-confidence takes a number from 0 to 1');
  const extractOptions = minConfidence === undefined ? {} : { minConfidence };

  if (command === 'extract' && rest.length === 2) {
    const [kind, file] = rest as [string, string];
    const format = values.format ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new UsageError('extract --format takes json or csv');
    if (values.evidence && (values.format !== undefined || values.confidence)) throw new UsageError('--evidence prints a table: it goes without --format and --confidence');
    // A file of a type the service reads goes as the SDK's `file` input (a PDF, an image, Markdown...); another type is
    // refused here, before anything is sent or charged (as batch skips it).
    const document = { file: sendable(file), filename: basename(file) };
    let answer: unknown;
    if (kind === 'custom') {
      if (!values.schema) throw new UsageError('extract custom needs --schema schema.json');
      answer = await client.extract.custom(document, readJson(values.schema) as { type: 'object' }, extractOptions);
    } else if ((KINDS as string[]).includes(kind)) {
      const method = { invoice: 'invoice', receipt: 'receipt', contract: 'contract', 'job-posting': 'jobPosting', 'meeting-notes': 'meetingNotes', renewal: 'renewal' } as const;
      answer = await client.extract[method[kind as Kind]](document, extractOptions);
    } else {
      throw new UsageError(`unknown kind ${kind}; one of ${[...KINDS, 'custom'].join(', ')}`);
    }
    const evidenced = answer as Parameters<typeof evidenceTable>[0];
    if (values.evidence) process.stdout.write(`${evidenceTable(evidenced, process.stdout.columns || 120)}\n`);
    else if (format === 'csv') process.stdout.write(`${[csvHeader(!!values.confidence), ...csvRows(basename(file), evidenced, !!values.confidence)].join('\n')}\n`);
    else process.stdout.write(`${JSON.stringify(values.confidence ? { ...(answer as object), confidence: confidenceMap(evidenced) } : answer, null, 2)}\n`);
    return 0;
  }

  if (command === 'batch' && rest.length === 1) {
    const folder = rest[0]!;
    if (!values.kind === !values.schema) throw new UsageError('batch needs exactly one of --kind or --schema');
    const format = values.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv') throw new UsageError('batch --format takes jsonl or csv');
    if (values.evidence) throw new UsageError('--evidence goes with extract (a table for one document); batch takes --confidence');
    if (values.kind && values.kind !== 'auto' && !(KINDS as string[]).includes(values.kind)) throw new UsageError(`unknown kind ${values.kind}; one of ${KINDS.join(', ')} or auto`);
    const fallback = values['fallback-kind'];
    if (fallback !== undefined && values.kind !== 'auto') throw new UsageError('--fallback-kind goes with --kind auto');
    if (fallback !== undefined && !(KINDS as string[]).includes(fallback)) throw new UsageError(`unknown kind ${fallback}; one of ${KINDS.join(', ')}`);
    const files = folderFiles(folder);
    const schema = values.schema ? readJson(values.schema) : undefined;
    if (values.out) writeFileSync(values.out, '');
    const write = (line: string) => (values.out ? appendFileSync(values.out, `${line}\n`) : process.stdout.write(`${line}\n`));
    const csv = format === 'csv';
    const confidence = !!values.confidence;
    if (csv) write(csvHeader(confidence));
    // One result: a JSON line, or its CSV rows (a failed document: one row holding its error).
    const emit = (line: string) => {
      const item = JSON.parse(line) as { id: string; ok: boolean; error?: { code: string; message: string } } & Parameters<typeof csvRows>[1];
      if (csv) {
        const rows = item.ok ? csvRows(item.id, item, confidence) : [csvErrorRow(item.id, item.error!.code, item.error!.message, confidence)];
        for (const r of rows) write(r);
      } else write(confidence && item.ok ? JSON.stringify({ ...item, confidence: confidenceMap(item) }) : line);
    };
    let done = 0;
    let failed = 0;
    let heu = 0;
    progress(0, files.length);
    const fail = (id: string, code: string, message: string, kind?: Kind | null) => {
      failed++;
      emit(JSON.stringify({ id, ok: false, error: { code, message }, ...(kind !== undefined ? { kind } : {}) }));
    };
    if (values.kind === 'auto') {
      // Each file to the service's classifier: the documents inside it found, classified and extracted, a line each.
      for (const f of files) {
        await autoFile(client, f, fallback as Kind | undefined, emit, (n) => { failed += n; }, (n) => { heu += n; });
        progress(++done, files.length);
      }
    } else {
      // Files a call: at most 20 (a batch's limit), few enough that the bar moves at least ten times (one file a call up
      // to ten files), and at most 10 MB of files, so that their base64 stays within the 15 MB body of a call.
      const size = Math.min(20, Math.max(1, Math.ceil(files.length / 10)));
      for (const call of planCalls(files, size, FILE_BYTES_PER_CALL)) {
        // Every file as the SDK's `file` input: read, its media type from its extension, sent in base64.
        const items: BatchItemInput[] = call.map((f) => {
          const document = { file: f.path, filename: f.name };
          return schema ? { id: f.name, document, schema: schema as components['schemas']['JsonSchemaObject'] } : { id: f.name, document, kind: values.kind as Kind };
        });
        try {
          const answer = await client.extract.batch(items, extractOptions);
          for (const item of answer.results) {
            if (!item.ok) failed++;
            emit(JSON.stringify(item));
          }
          heu += answer.usage.heu;
        } catch (e) {
          // A file too large for any call (it went alone): that file fails, the folder goes on.
          if (!(e instanceof DocExtractError && e.status === 413 && items.length === 1)) throw e;
          fail(items[0]!.id, e.code, e.message);
        }
        done += call.length;
        progress(done, files.length);
      }
    }
    say(summary([['files', files.length], ['ok', files.length - failed], ['failed', failed], ['HEU', heu]]));
    if (failed) say(`docextract: ${failed} of ${files.length} documents failed (see their "error")`);
    return failed ? 1 : 0;
  }

  if (command === 'classify' && rest.length === 1) {
    const target = rest[0]!;
    const kinds = values.kinds?.split(',').map((k) => k.trim()).filter(Boolean);
    for (const k of kinds ?? []) if (!(KINDS as string[]).includes(k)) throw new UsageError(`unknown kind ${k}; one of ${KINDS.join(', ')}`);
    const options = kinds?.length ? { kinds: kinds as Kind[] } : {};
    let folder = false;
    try {
      folder = statSync(target).isDirectory();
    } catch {
      throw new UsageError(`cannot read ${target}`);
    }
    if (!folder) {
      const answer = await client.classify({ file: sendable(target), filename: basename(target) }, options);
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return 0;
    }
    const files = folderFiles(target);
    let failed = 0;
    let heu = 0;
    for (const f of files) {
      try {
        const answer = await client.classify({ file: f.path, filename: f.name }, options);
        heu += answer.usage.heu;
        process.stdout.write(`${JSON.stringify({ id: f.name, ok: true, kind: answer.kind, confidence: answer.confidence, alternatives: answer.alternatives, model: answer.model, usage: answer.usage })}\n`);
      } catch (e) {
        if (!(e instanceof DocExtractError) || e.status === 401 || e.status === 0) throw e;
        failed++;
        process.stdout.write(`${JSON.stringify({ id: f.name, ok: false, error: { code: e.code, message: e.message } })}\n`);
      }
    }
    say(summary([['files', files.length], ['ok', files.length - failed], ['failed', failed], ['HEU', heu]]));
    return failed ? 1 : 0;
  }

  if (command === 'jobs' && rest.length === 1) {
    const folder = rest[0]!;
    if (!values.kind === !values.schema) throw new UsageError('jobs needs exactly one of --kind or --schema');
    if (values.kind && values.kind !== 'auto' && !(KINDS as string[]).includes(values.kind)) throw new UsageError(`unknown kind ${values.kind}; one of ${KINDS.join(', ')} or auto`);
    const fallback = values['fallback-kind'];
    if (fallback !== undefined && values.kind !== 'auto') throw new UsageError('--fallback-kind goes with --kind auto');
    if (fallback !== undefined && !(KINDS as string[]).includes(fallback)) throw new UsageError(`unknown kind ${fallback}; one of ${KINDS.join(', ')}`);
    let files = folderFiles(folder);
    if (values.out) writeFileSync(values.out, '');
    const emit = (line: string) => (values.out ? appendFileSync(values.out, `${line}\n`) : process.stdout.write(`${line}\n`));
    const schema = values.schema ? readJson(values.schema) as components['schemas']['JsonSchemaObject'] : undefined;
    // --kind auto: each file classified first (charged as /v1/classify is), then sent as a job of its kind.
    let classified: Map<string, Kind> | undefined;
    let unclassified = 0;
    let classifyHeu = 0;
    const total = files.length;
    if (values.kind === 'auto') {
      const kinds = await classifyFolder(client, files, fallback as Kind | undefined, emit);
      classified = kinds.routes;
      unclassified = kinds.failed;
      classifyHeu = kinds.heu;
      files = files.filter((f) => classified!.has(f.name));
    }
    const { failed, heu } = files.length === 0 ? { failed: 0, heu: 0 } : await runJobs(client, {
      // With --kind auto each file's own kind (routeOf) is its route; `route` is then not read.
      route: schema ? 'custom' : classified ? 'invoice' : (values.kind as Kind), ...(schema ? { schema } : {}), files, emit, say,
      ...(classified ? { routeOf: (f: FolderFile) => classified!.get(f.name)! } : {}),
      pollIntervalMs: Number(process.env.DOCEXTRACT_POLL_MS) || 1000,
    });
    const allFailed = failed + unclassified;
    say(summary([['files', total], ['ok', total - allFailed], ['failed', allFailed], ['HEU', heu + classifyHeu]]));
    if (allFailed) say(`docextract: ${allFailed} of ${total} documents failed (see their "error")`);
    return allFailed ? 1 : 0;
  }

  throw new UsageError(`unknown command\n${USAGE}`);
}

/** The files of a folder that are sent, the others named on stderr; a usage error when it cannot be read or sends none. */
function folderFiles(folder: string): FolderFile[] {
  let listing: ReturnType<typeof listFolder>;
  try {
    listing = listFolder(folder);
  } catch {
    throw new UsageError(`cannot read the folder ${folder}`);
  }
  const { files, skipped } = listing;
  if (skipped.length) say(`docextract: skipping ${skipped.length} file${skipped.length > 1 ? 's' : ''} of another type (${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', ...' : ''}); sent: ${FOLDER_EXTENSIONS.join(' ')}`);
  if (files.length === 0) throw new UsageError(`no files to send in ${folder} (${FOLDER_EXTENSIONS.join(' ')})`);
  return files;
}

/** A table with a header row, columns padded to their widest cell (the days-left column right-aligned). */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** A two-column table, one row per figure. */
function summary(rows: Array<[string, number]>): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n');
}

/**
 * `--kind auto` for one file: /v1/extract/auto, a line a part. A file whose every part is `other` is extracted with
 * `fallback` when one was given (its line says so: `kind` is the fallback, `classifiedAs` is `other`). A file the
 * service refuses (too large, damaged) fails alone.
 */
async function autoFile(client: DocExtract, f: FolderFile, fallback: Kind | undefined, emit: (line: string) => void, failed: (n: number) => void, charged: (heu: number) => void): Promise<void> {
  const document = { file: f.path, filename: f.name };
  try {
    const answer = await client.extract.auto(document);
    charged(answer.usage.heu);
    if (fallback && answer.parts.length > 0 && answer.parts.every((p) => p.kind === 'other' && !p.error)) {
      const method = { invoice: 'invoice', receipt: 'receipt', contract: 'contract', 'job-posting': 'jobPosting', 'meeting-notes': 'meetingNotes', renewal: 'renewal' } as const;
      const result = await client.extract[method[fallback]](document);
      charged(result.usage.heu);
      emit(JSON.stringify({ id: f.name, ok: true, kind: fallback, classifiedAs: 'other', ...result }));
      return;
    }
    const lines = autoLines(f.name, answer);
    // A file counts as failed when any document in it failed (an attachment that could not be read, say).
    failed(lines.some((l) => !l.ok) ? 1 : 0);
    for (const line of lines) emit(JSON.stringify(line));
  } catch (e) {
    if (!(e instanceof DocExtractError) || e.status === 401 || e.status === 0) throw e;
    failed(1);
    emit(JSON.stringify({ id: f.name, ok: false, error: { code: e.code, message: e.message } }));
  }
}

/**
 * `jobs --kind auto`: each file classified (/v1/classify), the kind each goes as; a file of no fixed kind (`other`)
 * goes as `fallback`, or fails with a line saying so, as does a file the classifier refused.
 */
async function classifyFolder(client: DocExtract, files: FolderFile[], fallback: Kind | undefined, emit: (line: string) => void): Promise<{ routes: Map<string, Kind>; failed: number; heu: number }> {
  const routes = new Map<string, Kind>();
  let failed = 0;
  let heu = 0;
  for (const f of files) {
    try {
      const answer = await client.classify({ file: f.path, filename: f.name });
      heu += answer.usage.heu;
      const kind = answer.kind === 'other' ? fallback : answer.kind as Kind;
      if (kind) {
        routes.set(f.name, kind);
        say(`docextract: ${f.name}: ${answer.kind}${answer.kind === 'other' ? `, sent as ${kind} (--fallback-kind)` : ''} (confidence ${answer.confidence.toFixed(2)})`);
        continue;
      }
      failed++;
      emit(JSON.stringify({ file: f.name, ok: false, kind: 'other', error: { code: 'unclassified', message: `No fixed kind was recognised (confidence ${answer.confidence.toFixed(2)}); give --fallback-kind to send such files as one.` } }));
    } catch (e) {
      if (!(e instanceof DocExtractError) || e.status === 401 || e.status === 0) throw e;
      failed++;
      emit(JSON.stringify({ file: f.name, ok: false, error: { code: e.code, message: e.message } }));
    }
  }
  return { routes, failed, heu };
}

let baseUrl = LOCAL_URL;

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    if (e instanceof UsageError) {
      say(`docextract: ${e.message}`);
      process.exit(2);
    }
    if (e instanceof DocExtractError) {
      say(`docextract: ${e.code}${e.status ? ` (HTTP ${e.status})` : ''} from ${baseUrl}: ${e.message}${e.requestId ? ` [request ${e.requestId}]` : ''}`);
      process.exit(1);
    }
    say(`docextract: ${(e as Error).message}`);
    process.exit(1);
  },
);
