import type { Request } from 'express';
import type { components } from '../../../generated/openapi.js';
import { FILE_MEDIA_TYPES, fileMediaType, mediaTypeOfFilename, type FileMediaType } from '../documents/media-types.js';
import { ApiError } from '../http/api-error.js';
import { receivedFile, type ReceivedFile } from '../http/multipart-body.js';

type Schemas = components['schemas'];
type Form = Partial<Schemas['RenewalFileForm'] & Schemas['CustomFileForm']>;

/** What a single-document route was sent, as JSON or as a file form: the document, and the file's bytes for a form. */
export interface SingleInput {
  /** The document's members; for a form, those other than its bytes (`filename`, `mediaType`, `vendorRenewalId`). */
  document: Schemas['DocumentInput'];
  model?: string;
  /** Custom route only. */
  schema?: Schemas['JsonSchemaObject'];
  /** A form's file, with the media type it is read as. */
  file?: { bytes: Uint8Array; mediaType: FileMediaType };
}

/** The request's input, from its JSON body (`document`, `model`, `schema`) or its multipart form. Throws ApiError (400). */
export function singleInput(req: Request): SingleInput {
  const received = receivedFile(req);
  if (!received) return jsonInput(req.body as Schemas['CustomExtractRequest']);
  const form = req.body as Form;
  const mediaType = mediaTypeOfForm(form.mediaType, received);
  const filename = form.filename ?? received.filename;
  const document: Schemas['DocumentInput'] = {
    mediaType,
    ...(filename !== undefined ? { filename } : {}),
    ...(form.vendorRenewalId !== undefined ? { vendorRenewalId: form.vendorRenewalId } : {}),
  };
  return {
    document,
    ...(form.model !== undefined ? { model: form.model } : {}),
    ...(form.schema !== undefined ? { schema: form.schema } : {}),
    file: { bytes: received.bytes, mediaType },
  };
}

/**
 * The input of a single-document JSON body. A job's stored request is read back through here too (jobs/job-runner.ts),
 * so a member the extraction requests gain reaches jobs with no change of theirs.
 */
export function jsonInput(body: Schemas['CustomExtractRequest']): SingleInput {
  return { document: body.document, ...(body.model !== undefined ? { model: body.model } : {}), ...(body.schema !== undefined ? { schema: body.schema } : {}) };
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
  const seen = file.contentType ? ` (its Content-Type is ${file.contentType})` : '';
  throw invalid('/body/file', `has no media type that is read${seen}: name it with an extension or a mediaType field, one of ${READ}`);
}
