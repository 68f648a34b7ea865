// `docextract batch --kind auto`: the one place that decides each file's kind. A text file (.txt, .md, .html) is
// guessed here from its words (classify.ts); a PDF or an image has no text here (the service reads it), so it takes
// --fallback-kind, or none. When the service classifies documents itself (a `POST /v1/classify` route, planned),
// the files left without a kind here are the ones to send to it: that call belongs in `classifyOnService` below, and
// nothing else in the CLI changes.
import { autoKind, type FolderFile } from './cli-files.js';
import type { components } from './contract.js';

type Kind = components['schemas']['ExtractionKind'];

/** Each file's kind, by file name; null for a file whose kind could not be decided (it is not sent). */
export type KindsByFile = Map<string, Kind | null>;

/**
 * The kinds of a folder's files under `--kind auto`: text files guessed from their words; the others given
 * `fallback` when there is one, else asked of the service's classifier (none yet), else left null.
 */
export async function resolveAutoKinds(files: FolderFile[], fallback: Kind | undefined): Promise<KindsByFile> {
  const kinds: KindsByFile = new Map(files.map((f) => [f.name, autoKind(f, fallback)]));
  const undecided = files.filter((f) => kinds.get(f.name) === null);
  if (undecided.length) for (const [name, kind] of await classifyOnService(undecided)) kinds.set(name, kind);
  return kinds;
}

/**
 * The service's classifier, for files whose text only the service reads. Not available yet: every file stays
 * undecided, and the CLI says so (naming --fallback-kind) without sending them.
 */
async function classifyOnService(files: FolderFile[]): Promise<KindsByFile> {
  return new Map(files.map((f) => [f.name, null]));
}

/** The one line the CLI prints, before sending anything, when some files have no kind under --kind auto. */
export function undecidedMessage(undecided: FolderFile[]): string {
  const names = undecided.slice(0, 5).map((f) => f.name).join(', ') + (undecided.length > 5 ? ', ...' : '');
  const count = `${undecided.length} file${undecided.length > 1 ? 's' : ''}`;
  return `docextract: --kind auto guesses a kind from a file's words, and PDFs and images are read only by the service: ${count} (${names}) will not be sent. Pass --fallback-kind <kind> to send them as that kind (e.g. --fallback-kind invoice), or send them with --kind <kind>.`;
}
