import type { components } from '../../../../generated/openapi.js';
import type { Classified, Kind } from '../../classification/classify-text.js';
import { KINDS } from '../../classification/classify-text.js';
import type { DocumentText } from '../../documents/documents.js';
import { createLocalRunner, type LocalRunner } from '../engines/local-pool/local-pool.js';
import { findParts, type FoundPart } from './find-parts.js';

type Schemas = components['schemas'];

/** The part of an e-mail a single-document route reads as its document: its text, layout and where it is. */
export interface DocumentPart {
  text: string;
  layout?: FoundPart['layout'];
  source: Schemas['PartSource'];
}

// The offline classifier's own thread, created on first use (idle threads end by themselves): choosing the part is
// part of reading an e-mail, offline and uncharged whatever the engine, as splitting a packet is on /v1/extract/auto.
let runner: LocalRunner | undefined;
const runnerOf = () => (runner ??= createLocalRunner({ threads: 1, taskBudgetMs: 60_000 }));

/**
 * Which of an e-mail's parts `pick` chooses as the document of a route of kind `kind`, from each part's offline
 * classification (`classes`, in the order of `parts`; the first part is the e-mail's own message):
 * 1. the attachment classified as `kind` (of several, the most confident; the first on a tie);
 * 2. else the message, when it is classified as `kind` (an invoice written in the mail, a price list attached);
 * 3. else, when the message is of no kind (a cover note: `other`) and exactly one attachment was read, that attachment;
 * 4. else none: the e-mail is read whole, as before.
 */
export function pickPart(parts: readonly { source: Schemas['PartSource'] }[], classes: readonly Classified[], kind: Kind): number | null {
  const isMessage = (i: number) => i === 0 && parts[0]!.source.attachment === undefined;
  let best: number | null = null;
  parts.forEach((_, i) => {
    if (isMessage(i) || classes[i]!.kind !== kind) return;
    if (best === null || classes[i]!.confidence > classes[best]!.confidence) best = i;
  });
  if (best !== null) return best;
  if (isMessage(0) && classes[0]!.kind === kind) return 0;
  const attachments = parts.map((_, i) => i).filter((i) => !isMessage(i));
  if (isMessage(0) && classes[0]!.kind === 'other' && attachments.length === 1) return attachments[0]!;
  return null;
}

/**
 * The part of an e-mail read on a fixed route (`kind`): its message and each attachment read, each classified offline,
 * and the one `pickPart` chooses. Null when the read is not an e-mail with attachments, or no part is chosen.
 */
export async function documentPart(read: DocumentText, kind: Kind, signal: AbortSignal): Promise<DocumentPart | null> {
  const fileParts = read.file?.parts;
  if (!fileParts || fileParts.length < 2) return null;
  // Each attachment whole (a packet inside one is not split here: the route reads one document).
  const parts = await findParts(read, true, 0, undefined, async (pages) => [{ from: 0, to: pages.length - 1 }]);
  let classes: Classified[];
  try {
    ({ classes } = await runnerOf().classify({ op: 'classify', texts: parts.map((p) => p.classifyText ?? p.text), kinds: [...KINDS] }, signal));
  } catch {
    // A classifier that cannot answer now (its queue full, past its budget) leaves the e-mail read whole, as before.
    if (signal.aborted) throw signal.reason;
    return null;
  }
  const i = pickPart(parts, classes, kind);
  if (i === null) return null;
  const part = parts[i]!;
  return { text: part.text, source: part.source, ...(part.layout ? { layout: part.layout } : {}) };
}
