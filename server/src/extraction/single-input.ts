import type { Request } from 'express';
import type { components } from '../../../generated/openapi.js';
import type { AnyDocumentInput } from '../documents/documents.js';
import { FILE_MEDIA_TYPES, fileMediaType, mediaTypeOfFilename, type FileMediaType } from '../documents/media-types.js';
import { ApiError } from '../http/api-error.js';
import { unreadFileMessage } from '../http/readable-issues.js';
import { receivedFile, type ReceivedFile } from '../http/multipart-body.js';

type Schemas = components['schemas'];
type Form = Partial<Schemas['RenewalFileForm'] & Schemas['CustomFileForm'] & Schemas['AutoFileForm']>;

/** What a single-document route was sent, as JSON or as a file form: the document, and the file's bytes for a form. */
export interface SingleInput {
  /** The document's members; for a form, those other than its bytes (`filename`, `mediaType`, `vendorRenewalId`). */
  document: AnyDocumentInput;
  model?: string;
  /** Custom route (and the schema of `other` parts on `/v1/extract/auto`). */
  schema?: Schemas['JsonSchemaObject'];
  /** `/v1/classify` and `/v1/extract/auto`: the kinds to choose among. */
  kinds?: Schemas['ExtractionKind'][];
  /** A form's file, with the media type it is read as. */
  file?: { bytes: Uint8Array; mediaType: FileMediaType };
  /** `minConfidence`, `returnText`, `review` and `reviewBelow`, from the body or the form's fields. */
  options: Pick<Schemas['ExtractRequest'], 'minConfidence' | 'returnText' | 'review' | 'reviewBelow'>;
}

/** The request's input, from its JSON body (`document`, `model`, `schema`) or its multipart form. Throws ApiError (400). */
export function singleInput(req: Request): SingleInput {
  const received = receivedFile(req);
  if (!received) return jsonInput(req.body as Schemas['CustomExtractRequest'] & { kinds?: Schemas['ExtractionKind'][] });
  const form = req.body as Form & { minConfidence?: string; returnText?: string; review?: string; reviewBelow?: string };
  const mediaType = mediaTypeOfForm(form.mediaType, received);
  const filename = form.filename ?? received.filename;
  const document: AnyDocumentInput = {
    mediaType,
    ...(filename !== undefined ? { filename } : {}),
    ...(form.vendorRenewalId !== undefined ? { vendorRenewalId: form.vendorRenewalId } : {}),
  };
  return {
    document,
    ...(form.model !== undefined ? { model: form.model } : {}),
    ...(form.schema !== undefined ? { schema: form.schema } : {}),
    ...(form.kinds !== undefined ? { kinds: form.kinds } : {}),
    file: { bytes: received.bytes, mediaType },
    // The contract's patterns have already checked the fields: a number from 0 to 1, `true` or `false`.
    options: optionsOf({
      ...(form.minConfidence !== undefined ? { minConfidence: Number(form.minConfidence) } : {}), ...(form.returnText !== undefined ? { returnText: form.returnText === 'true' } : {}),
      ...(form.review !== undefined ? { review: form.review === 'true' } : {}), ...(form.reviewBelow !== undefined ? { reviewBelow: Number(form.reviewBelow) } : {}),
    }),
  };
}

/** The request's evidence options, members left out when not sent. */
export function optionsOf(body: Pick<Schemas['ExtractRequest'], 'minConfidence' | 'returnText' | 'review' | 'reviewBelow'>): SingleInput['options'] {
  return {
    ...(body.minConfidence !== undefined ? { minConfidence: body.minConfidence } : {}), ...(body.returnText !== undefined ? { returnText: body.returnText } : {}),
    ...(body.review !== undefined ? { review: body.review } : {}), ...(body.reviewBelow !== undefined ? { reviewBelow: body.reviewBelow } : {}),
  };
}

/**
 * The input of a single-document JSON body. A job's stored request is read back through here too (jobs/job-runner.ts),
 * so a member the extraction requests gain reaches jobs with no change of theirs.
 */
export function jsonInput(body: Schemas['CustomExtractRequest'] & { kinds?: Schemas['ExtractionKind'][] }): SingleInput {
  return { document: body.document, ...(body.model !== undefined ? { model: body.model } : {}), ...(body.schema !== undefined ? { schema: body.schema } : {}), ...(body.kinds !== undefined ? { kinds: body.kinds } : {}), options: optionsOf(body) };
}

const READ = Object.keys(FILE_MEDIA_TYPES).join(', ');
const invalid = (path: string, message: string) => new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });

/**
 * The media type a form's file is read as: the `mediaType` field when sent; else the part's `Content-Type`, when it
 * is one that is read; else the file name's extension. 400 when none of them names a media type that is read.
 */
function mediaTypeOfForm(field: string | undefined, file: ReceivedFile): FileMediaType {
  if (field !== undefined) {
    const declared = fileMediaType(field);
    if (!declared) throw invalid('/body/mediaType', `must be one of ${READ}`);
    return declared;
  }
  const found = fileMediaType(file.contentType) ?? mediaTypeOfFilename(file.filename);
  if (found) return found;
  throw invalid('/body/file', unreadFileMessage(file.filename, file.contentType));
}
