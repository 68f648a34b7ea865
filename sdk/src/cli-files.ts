// The files of a `docextract batch` folder: which are sent, in which calls, and how `--kind auto` picks their kind.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mediaTypeOf } from './files.js';
import type { components } from './contract.js';

type Schemas = components['schemas'];

/**
 * The extensions a folder's files are sent for: PDFs, images, text files, Office files, CSV and e-mails (the media
 * types the service reads).
 */
export const FOLDER_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.md', '.markdown', '.html', '.htm', '.txt', '.csv', '.docx', '.xlsx', '.eml', '.msg'];

/**
 * The media type a file is sent as, from its extension, or undefined when it is none of the types the service reads
 * (`extract` and `classify` refuse such a file before anything is sent, as `batch` and `jobs` skip it in a folder).
 */
export function sendableType(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0 || !FOLDER_EXTENSIONS.includes(name.slice(dot).toLowerCase())) return undefined;
  return mediaTypeOf(name);
}

/** A file of the folder to send. */
export interface FolderFile {
  name: string;
  path: string;
  bytes: number;
  mediaType: string;
  /** Whether its text can be read here (text, Markdown, HTML), for `--kind auto`. */
  isText: boolean;
}

/** The folder's files that are sent, in name order, and the names of those that are not (another extension). */
export function listFolder(folder: string): { files: FolderFile[]; skipped: string[] } {
  const files: FolderFile[] = [];
  const skipped: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    const stat = statSync(path);
    if (!stat.isFile()) continue;
    const mediaType = sendableType(name);
    if (!mediaType) {
      skipped.push(name);
      continue;
    }
    files.push({ name, path, bytes: stat.size, mediaType, isText: mediaType.startsWith('text/') });
  }
  return { files, skipped };
}

/**
 * The folder in calls: at most `perCall` files each (a batch takes 20), and at most `bytesPerCall` bytes of files so
 * that their base64 stays within the request's body limit; a file larger than that goes alone.
 */
export function planCalls(files: FolderFile[], perCall: number, bytesPerCall: number): FolderFile[][] {
  const calls: FolderFile[][] = [];
  let current: FolderFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length && (current.length >= perCall || bytes + file.bytes > bytesPerCall)) {
      calls.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.bytes;
  }
  if (current.length) calls.push(current);
  return calls;
}

/**
 * The lines `--kind auto` prints for one file's answer from /v1/extract/auto: one a part, its id the file's name (with
 * the attachment and pages when the file held several parts), its kind and confidence, where it was found, and the
 * route's answer (`data`, `model`, `usage`, `source`) when it was extracted, or its `error`.
 */
export function autoLines(name: string, answer: Schemas['AutoExtraction']): Array<Record<string, unknown>> {
  const several = answer.parts.length > 1;
  return answer.parts.map((part) => {
    const where = [part.source.attachment, part.source.pages ? `p${part.source.pages.from}${part.source.pages.to !== part.source.pages.from ? `-${part.source.pages.to}` : ''}` : undefined].filter(Boolean).join('#');
    const id = several && where ? `${name}#${where}` : name;
    const head = { id, ok: !part.error, kind: part.kind, confidence: part.confidence, part: part.source };
    return part.error ? { ...head, error: part.error } : { ...head, ...(part.result ?? {}) };
  });
}
