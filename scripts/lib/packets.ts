// The packet corpus (test/packets/labels.json): its label types, how each packet and e-mail is rendered from the
// repository's labelled documents, the service's auto pipeline run in-process (read, find parts, classify, extract
// with the offline engine, as /v1/extract/auto does), and the scores: classification accuracy, page-boundary F1, and
// the field F1 of the parts against the same documents sent alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { classifyText } from '../../server/src/classification/classify-text.js';
import { splitPages } from '../../server/src/classification/split-pages.js';
import { Documents } from '../../server/src/documents/documents.js';
import type { FileMediaType } from '../../server/src/documents/media-types.js';
import type { FixedKind } from '../../server/src/extraction/engines/engine.js';
import { runLocalTask } from '../../server/src/extraction/engines/local-pool/local-task.js';
import { findParts, type FoundPart } from '../../server/src/extraction/auto/find-parts.js';
import { dataSchemaFor } from '../../server/src/extraction/schemas/contract-schemas.js';
import { compare, type Counts } from '../../server/test/local-engine/accuracy/score.js';
import { docxFile, emlFile, MEDIA } from '../../server/test/support/office-files.js';
import { pageTexts, scanPagesPdf, textPdf } from '../../server/test/support/render-documents.js';

export interface PageRange { from: number; to: number }
export interface PacketDoc { path: string; set: string; id: string; route: string; kind: string; size: number; footer: boolean; pages: number }
export interface PartLabel { pages: PageRange; kind: string }
export interface Packet { id: string; rendering: 'pdf' | 'scan'; documents: PacketDoc[]; parts: PartLabel[] }
export interface MailAttachment { filename: string; format: 'pdf' | 'docx' | 'scan' | 'packet'; documents: PacketDoc[]; parts: PartLabel[] }
export interface Mail { id: string; subject: string; body: { text: string; kind: 'other' } | { document: PacketDoc; kind: string }; attachments: MailAttachment[] }
export interface PacketLabels { packets: Packet[]; mails: Mail[] }

const root = new URL('../..', import.meta.url).pathname;
export const LABELS = join(root, 'test/packets/labels.json');
export const loadLabels = (): PacketLabels => JSON.parse(readFileSync(LABELS, 'utf8'));
export const textOf = (doc: PacketDoc) => readFileSync(join(root, doc.path), 'utf8');

/** Pages of several PDFs, one after the other, in one PDF. */
async function joinPdfs(files: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const file of files) {
    const one = await PDFDocument.load(file);
    for (const page of await out.copyPages(one, one.getPageIndices())) out.addPage(page);
  }
  return out.save({ useObjectStreams: false });
}

/** Documents set one after the other as a text PDF, or as a scanned PDF of 200 dpi page images. */
export async function renderDocuments(docs: PacketDoc[], rendering: 'pdf' | 'scan'): Promise<Uint8Array> {
  if (rendering === 'pdf') return joinPdfs(await Promise.all(docs.map((d) => textPdf(textOf(d), { size: d.size, footer: d.footer }))));
  const scans: Uint8Array[] = [];
  for (const [i, d] of docs.entries()) scans.push(await scanPagesPdf(pageTexts(textOf(d), { size: d.size, footer: d.footer }), { dpi: 200, size: d.size, seed: 11 + i }));
  return joinPdfs(scans);
}

export async function renderPacket(packet: Packet): Promise<{ bytes: Uint8Array; mediaType: FileMediaType }> {
  return { bytes: await renderDocuments(packet.documents, packet.rendering), mediaType: 'application/pdf' };
}

async function renderAttachment(a: MailAttachment): Promise<{ filename: string; contentType: string; content: Uint8Array }> {
  if (a.format === 'docx') {
    // A Word file: each document's lines as paragraphs, a page break between documents.
    const blocks = a.documents.flatMap((d, i) => [...(i ? [{ pageBreak: true as const }] : []), textOf(d)]);
    return { filename: a.filename, contentType: MEDIA.docx, content: await docxFile(blocks) };
  }
  return { filename: a.filename, contentType: 'application/pdf', content: await renderDocuments(a.documents, a.format === 'scan' ? 'scan' : 'pdf') };
}

export async function renderMail(mail: Mail): Promise<{ bytes: Uint8Array; mediaType: FileMediaType }> {
  const text = 'text' in mail.body ? mail.body.text : textOf(mail.body.document);
  const attachments = await Promise.all(mail.attachments.map(renderAttachment));
  return { bytes: await emlFile({ from: 'sender@example.test', to: 'inbox@example.test', subject: mail.subject, text, attachments }), mediaType: MEDIA.eml as FileMediaType };
}

/** A document sent alone, as the packet renders it (the same setting and rendering). */
export async function renderAlone(doc: PacketDoc, rendering: 'pdf' | 'scan' | 'docx'): Promise<{ bytes: Uint8Array; mediaType: FileMediaType }> {
  if (rendering === 'docx') return { bytes: await docxFile([textOf(doc)]), mediaType: MEDIA.docx as FileMediaType };
  return { bytes: await renderDocuments([doc], rendering), mediaType: 'application/pdf' };
}

export interface PredictedPart { attachment?: string; pages?: PageRange; kind: string; confidence: number; data: unknown }

/** What a document's route extracts from its text, offline (the worker's task: rules, bounds, schema check). */
export function extractOffline(kind: string, text: string): unknown {
  if (kind === 'other') return null;
  const out = runLocalTask({ task: { kind: kind as FixedKind }, text, schema: dataSchemaFor(kind as FixedKind) });
  return out.ok ? out.data : null;
}

/** /v1/extract/auto in-process, on the offline engine: read, find the parts, classify each, extract each. */
export async function autoInProcess(documents: Documents, file: { bytes: Uint8Array; mediaType: FileMediaType }): Promise<PredictedPart[]> {
  const caller = { accountId: 'packets', signal: new AbortController().signal };
  const prepared = await documents.prepareFile(file.bytes, file.mediaType, caller);
  const read = await documents.read(prepared, caller);
  const found: FoundPart[] = await findParts(read, true, file.bytes.byteLength, undefined, async (pages) => splitPages(pages));
  return found.map((part) => {
    const c = classifyText(part.classifyText ?? part.text);
    return { ...(part.source.attachment ? { attachment: part.source.attachment } : {}), ...(part.source.pages ? { pages: part.source.pages } : {}), kind: c.kind, confidence: c.confidence, data: extractOffline(c.kind, part.text) };
  });
}

/** The text the service reads from a file. */
export async function readText(documents: Documents, file: { bytes: Uint8Array; mediaType: FileMediaType }): Promise<string> {
  const caller = { accountId: 'packets', signal: new AbortController().signal };
  const prepared = await documents.prepareFile(file.bytes, file.mediaType, caller);
  return (await documents.read(prepared, caller)).text;
}

/** Boundaries: the pages (after the first) where a document starts. */
export function boundaryCounts(gold: PartLabel[], predicted: Array<{ pages?: PageRange }>): Counts {
  const want = new Set(gold.map((p) => p.pages.from).filter((p) => p > 1));
  const got = new Set(predicted.flatMap((p) => (p.pages && p.pages.from > 1 ? [p.pages.from] : [])));
  const tp = [...got].filter((p) => want.has(p)).length;
  return { tp, fp: got.size - tp, fn: want.size - tp };
}

export const f1 = (c: Counts) => (2 * c.tp + c.fp + c.fn === 0 ? 1 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));
export const addCounts = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });

/** The gold fields of a document of a fixed route (its .json beside its text), or null (custom documents). */
export function goldOf(doc: PacketDoc): unknown {
  if (doc.route === 'custom') return null;
  return JSON.parse(readFileSync(join(root, doc.path.replace(/\.(txt|md)$/, '.json')), 'utf8'));
}

/** Field counts of a predicted part against a document's gold fields (a wrong kind's answer counts as all missed). */
export function fieldCounts(doc: PacketDoc, kind: string, data: unknown): Counts | null {
  const gold = goldOf(doc);
  if (gold === null) return null;
  const { tp, fp, fn } = compare(gold, kind === doc.kind && data ? data : {});
  return { tp, fp, fn };
}
