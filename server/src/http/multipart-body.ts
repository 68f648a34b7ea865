import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { openapiDocument } from '../contract/documents.js';
import { MAX_FILE_BYTES } from '../documents/limits.js';
import { fileMediaType } from '../documents/media-types.js';
import { ApiError } from './api-error.js';
import { inspectJson, refuseIssues } from './input-guard.js';

/** The file part of a multipart/form-data request, as received. */
export interface ReceivedFile {
  bytes: Uint8Array;
  /** The part's own file name (its path left out), when it has one. */
  filename?: string;
  /** The part's `Content-Type`, when it has one other than the default. */
  contentType?: string;
}

/** The name of the file part, and the one part read as a file. */
export const FILE_PART = 'file';

/** Room for the fields and the part headers around the file (a custom schema is at most 32 KB of JSON). */
const FORM_OVERHEAD_BYTES = 256 * 1024;
/** The longest field value: a custom schema's JSON text, with room to spare. */
const FIELD_BYTES = 64 * 1024;
/** The most items a list field (`kinds`) may be sent as, one field each. */
const LIST_ITEMS = 16;

const files = new WeakMap<IncomingMessage, ReceivedFile>();

/** The file a multipart request carried, once `multipartBody` has read it; undefined for any other request. */
export const receivedFile = (req: Request): ReceivedFile | undefined => files.get(req);

const isMultipart = (req: IncomingMessage) => /^multipart\/form-data\s*(;|$)/i.test(req.headers['content-type'] ?? '');

/**
 * The fields each operation's multipart form takes besides its file, and those holding JSON, from the contract: a
 * route whose contract has no multipart body takes none (its multipart request is 415, as any body not JSON).
 */
const forms = new Map<string, { fields: Set<string>; json: Set<string>; lists: Set<string> }>();
for (const [path, item] of Object.entries(openapiDocument.paths)) {
  const content = item.post?.requestBody?.content?.['multipart/form-data'];
  if (!content) continue;
  const ref: string = content.schema.$ref;
  const schema = openapiDocument.components.schemas[ref.slice(ref.lastIndexOf('/') + 1)];
  const properties = schema.properties as Record<string, { type?: string }>;
  const fields = new Set(Object.keys(properties).filter((name) => name !== FILE_PART));
  const json = new Set(Object.entries((content.encoding ?? {}) as Record<string, { contentType?: string }>)
    .filter(([, e]) => e.contentType === 'application/json').map(([name]) => name));
  // An array of plain-text parts (`kinds`): one field per item, as curl (`-F kinds=invoice -F kinds=receipt`) and
  // generated clients (hey-api's formDataBodySerializer appends each item) send an array.
  const lists = new Set(Object.entries(properties).filter(([name, p]) => p.type === 'array' && !json.has(name)).map(([name]) => name));
  forms.set(path, { fields, json, lists });
}

/** Whether a route's contract takes a multipart/form-data body (beside JSON): its 415 names both. */
export const takesForm = (path: string): boolean => forms.has(path);

/**
 * The items of a list field: one per field sent; a single field holding a JSON array (`["invoice","receipt"]`, what
 * the contract asked for before lists were sent a field per item) is that array. `[]` is kept as an empty list, which
 * the contract's `minItems` or the route then refuses as it refuses `[]` in a JSON body.
 */
function listField(name: string, values: string[]): unknown[] | ApiError {
  if (values.length !== 1 || !values[0]!.trimStart().startsWith('[')) return values;
  try {
    const parsed: unknown = JSON.parse(values[0]!);
    return Array.isArray(parsed) ? parsed : invalid(`/body/${name}`, 'must be a list');
  } catch {
    return invalid(`/body/${name}`, 'is not JSON');
  }
}

const invalid = (path: string, message: string) => new ApiError('invalid_request', `${path} ${message}`, { errors: [{ path, message }] });
const tooLarge = () => new ApiError('payload_too_large',
  `The file is over ${MAX_FILE_BYTES.toLocaleString('en-US')} bytes, the most that is read.`, { limit: MAX_FILE_BYTES });

/**
 * Reads a multipart/form-data body on the routes whose contract takes one (the single-document extraction routes):
 * exactly one file part named `file`, held in memory (at most MAX_FILE_BYTES: over it, 413 with the limit), and the
 * fields the contract lists, each at most once. The fields become `req.body` (a JSON field parsed), with `file` as
 * an empty placeholder so that the contract validator sees the part; the bytes are kept for `receivedFile`. Any other
 * part, a missing or second file, a field sent twice or a body that does not parse is 400 invalid_request.
 */
export const multipartBody: RequestHandler = (req, _res, next) => {
  if (req.method !== 'POST' || !isMultipart(req)) return next();
  const form = forms.get(req.path);
  if (!form) throw new ApiError('unsupported_media_type');
  const length = req.headers['content-length'];
  if (length !== undefined && Number(length) > MAX_FILE_BYTES + FORM_OVERHEAD_BYTES) throw tooLarge();

  // Room for a list field sent one item a field (a route takes at most a handful of kinds).
  const room = form.lists.size * LIST_ITEMS;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // A few fields over the form's, so that an unknown one is named in the answer rather than cut off. busboy says
      // 'limit' once a file reaches fileSize bytes, so a file of exactly MAX_FILE_BYTES would be refused with it: the
      // limit is one byte more, and 'limit' then means the file is over MAX_FILE_BYTES.
      limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: form.fields.size + 4 + room, parts: form.fields.size + 6 + room, fieldSize: FIELD_BYTES },
    });
  } catch {
    throw invalid('/body', 'is not multipart/form-data with a boundary');
  }

  const fields: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const chunks: Buffer[] = [];
  let file: Omit<ReceivedFile, 'bytes'> | undefined;
  // The first problem found; the body is still read to its end, so the client gets the answer, not a reset.
  let problem: ApiError | undefined;
  const refuse = (error: ApiError) => { problem ??= error; };
  let settled = false;
  const finish = (error?: unknown) => {
    if (settled) return;
    settled = true;
    req.unpipe(parser);
    if (error !== undefined) return next(error);
    if (problem) return next(problem);
    if (!file) return next(invalid(`/body/${FILE_PART}`, `is required: send the file as a part named ${FILE_PART} (curl -F ${FILE_PART}=@invoice.pdf)`));
    const body: Record<string, unknown> = { [FILE_PART]: '' };
    for (const [name, values] of Object.entries(lists)) {
      const listed = listField(name, values);
      if (listed instanceof ApiError) return next(listed);
      body[name] = listed;
    }
    for (const [name, value] of Object.entries(fields)) {
      if (!form.json.has(name)) {
        body[name] = value;
        continue;
      }
      try {
        body[name] = JSON.parse(value);
      } catch {
        return next(invalid(`/body/${name}`, 'is not JSON'));
      }
    }
    // The file part's own name is text like any field (it is stored): U+0000 is refused in it as in every field.
    if (file.filename?.includes('\u0000')) return next(invalid(`/body/${FILE_PART}`, 'has a file name that contains U+0000 (NUL)'));
    const issues = inspectJson(body);
    if (issues.length) return next(refuseIssues(issues));
    files.set(req, { bytes: Buffer.concat(chunks), ...file });
    req.body = body;
    next();
  };

  const malformed = (err: Error) => finish(invalid('/body', `is not well-formed multipart/form-data (${err.message})`));
  parser.on('file', (name, stream, info) => {
    // A body that ends inside a file part fails its stream as well as the parser: never an unhandled 'error'.
    stream.on('error', malformed);
    if (name !== FILE_PART) {
      refuse(invalid(`/body/${name}`, `is not a part this route takes: the file goes in a part named ${FILE_PART}`));
      stream.resume();
      return;
    }
    file = {
      ...(info.filename ? { filename: info.filename } : {}),
      ...(info.mimeType && info.mimeType !== 'application/octet-stream' ? { contentType: info.mimeType } : {}),
    };
    stream.on('data', (chunk: Buffer) => { if (!problem) chunks.push(chunk); });
    stream.on('limit', () => {
      refuse(tooLarge());
      chunks.length = 0;
    });
  });
  parser.on('field', (name, value, info) => {
    if (name === FILE_PART) return refuse(invalid(`/body/${FILE_PART}`, `must be a file part, not a text field (curl -F ${FILE_PART}=@invoice.pdf)`));
    if (!form.fields.has(name)) return refuse(invalid(`/body/${name}`, `is not a field this route takes (it takes ${FILE_PART}${[...form.fields].map((f) => `, ${f}`).join('')})`));
    if (info.valueTruncated) return refuse(invalid(`/body/${name}`, `is longer than ${FIELD_BYTES.toLocaleString('en-US')} bytes`));
    if (form.lists.has(name)) return void (lists[name] ??= []).push(value);
    if (Object.hasOwn(fields, name)) return refuse(invalid(`/body/${name}`, 'is sent more than once'));
    // A media type is read in lower case without parameters (RFC 9110 §8.3.1), before the contract's list is checked.
    fields[name] = name === 'mediaType' ? (fileMediaType(value) ?? value) : value;
  });
  parser.on('filesLimit', () => refuse(invalid(`/body/${FILE_PART}`, 'must be exactly one file: this body has more than one file part')));
  parser.on('fieldsLimit', () => refuse(invalid('/body', 'has more fields than this route takes')));
  parser.on('partsLimit', () => refuse(invalid('/body', 'has more parts than this route takes')));
  parser.on('error', malformed);
  parser.on('close', () => finish());
  req.on('aborted', () => finish(new ApiError('invalid_request', 'The request body was not received in full.', { errors: [] })));
  req.pipe(parser);
};
