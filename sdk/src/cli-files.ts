// The files of a `docextract batch` folder: which are sent, in which calls, and how `--kind auto` picks their kind.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { guessKind } from './classify.js';
import { mediaTypeOf } from './files.js';
import type { components } from './contract.js';

type Kind = components['schemas']['ExtractionKind'];

/** The extensions a folder's files are sent for: PDFs, images and text files (the media types the service reads). */
export const FOLDER_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.md', '.html', '.htm', '.txt'];

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
    const dot = name.lastIndexOf('.');
    const mediaType = mediaTypeOf(name);
    if (dot < 0 || !FOLDER_EXTENSIONS.includes(name.slice(dot).toLowerCase()) || !mediaType) {
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
 * `--kind auto`: a text file's kind guessed from its words (HTML without its tags); a PDF or image, whose text only the
 * service reads, takes `fallback` (`--fallback-kind`), else null: the CLI reports that auto needs text.
 */
export function autoKind(file: FolderFile, fallback: Kind | undefined): Kind | null {
  if (!file.isText) return fallback ?? null;
  const raw = readFileSync(file.path, 'utf8');
  return guessKind(file.mediaType === 'text/html' ? raw.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ') : raw);
}
