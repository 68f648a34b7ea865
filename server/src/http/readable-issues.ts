// The contract validator's issues as a caller can act on them. Ajv reports every branch of a oneOf and names a
// missing member by the member's own path; a caller needs one sentence that says what to send instead.
import { EXTENSION_MEDIA_TYPES, FILE_MEDIA_TYPES, fileMediaType } from '../documents/media-types.js';

export interface Issue {
  path: string;
  message: string;
}

/** The media types a file is read as, and the extensions that name them, from the one list the service reads. */
export const READ_MEDIA_TYPES = Object.keys(FILE_MEDIA_TYPES).join(', ');
const READ_EXTENSIONS = Object.keys(EXTENSION_MEDIA_TYPES).map((e) => `.${e}`).join(' ');

const ONE_OF = 'must match exactly one schema in oneOf';
/** The contract's pattern of a webhook URL (CreateWebhookEndpointRequest.url). */
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
const ANY_OF = 'must match a schema in anyOf';
const required = (name: string) => `must have required property '${name}'`;

/** The value at a validator path such as `/body/items/0/document`, in the request body. */
function valueAt(body: unknown, path: string): unknown {
  let node: unknown = body;
  for (const key of path.split('/').slice(2)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * - a body without its `document` wrapper (`{"text": ...}`) is told to put the document inside one;
 * - a `document` that is not exactly one of its variants (`DocumentText`, `DocumentFile`) gets one issue saying
 *   which members it lacks or has too many of, instead of each branch's;
 * - a file's media type that is not read names the ones that are.
 */
export function readableIssues(issues: Issue[], body: unknown): Issue[] {
  let out = issues.map((issue) => {
    if (issue.message === 'must match format "uri"') return { path: issue.path, message: 'is not a URL: an absolute URL such as https://example.com/hooks' };
    // The webhook URL's scheme (the contract's pattern): the same words as the service's own check.
    if (issue.message === `must match pattern "${HTTP_URL_PATTERN}"`) return { path: issue.path, message: 'must be an https:// URL (http:// only on servers that allow it)' };
    // An update naming nothing (`PATCH /v1/renewals/{id}` with `{}`, the contract's minProperties).
    if (issue.message === 'must NOT have fewer than 1 properties') return { path: issue.path, message: 'names nothing to change: send at least one member' };
    if (issue.message === required('document') && /^\/body(\/document)?$/.test(issue.path)) {
      const flat = isObject(body) && ['text', 'content'].some((k) => k in body);
      return {
        path: '/body/document',
        message: flat
          ? 'is required: the document goes inside a "document" member, as {"document": {"text": "..."}}, not at the top of the body'
          : 'is required: {"document": {"text": "..."}}, or {"document": {"content": "<base64>", "mediaType": "application/pdf"}} for a file',
      };
    }
    return issue;
  });
  // A value that is not a URL at all needs no word on its scheme.
  out = out.filter((i) => !(i.message.startsWith('must be an https:// URL') && out.some((o) => o.path === i.path && o.message.startsWith('is not a URL'))));
  // A batch item is one of `{id, document, kind}` and `{id, document, schema}`: the branch it meant is the one whose
  // member it has, and the other branch's "required" issue and the anyOf summary say nothing more.
  for (const anyOf of issues.filter((i) => i.message === ANY_OF && /^\/body\/items\/\d+$/.test(i.path))) {
    const item = valueAt(body, anyOf.path);
    if (!isObject(item) || ('kind' in item) === ('schema' in item)) continue;
    const other = 'kind' in item ? 'schema' : 'kind';
    const rest = out.filter((i) => i !== anyOf && !(i.path === `${anyOf.path}/${other}` && i.message === required(other)));
    if (rest.some((i) => i.path.startsWith(`${anyOf.path}/`))) out = rest.filter((i) => i.message !== ANY_OF || i.path !== anyOf.path);
  }
  // A job request is a fixed route's request or custom's: the branch meant is the one its `route` names, so the other
  // branch's issues (custom's missing schema and constant route, or the fixed routes' list) say nothing more.
  for (const anyOf of issues.filter((i) => i.message === ANY_OF && i.path === '/body')) {
    if (!isObject(body) || typeof body.route !== 'string') continue;
    const custom = body.route === 'custom';
    const others = (i: Issue) => i.path === '/body/route' || (!custom && i.path === '/body/schema' && i.message === required('schema'));
    const rest = out.filter((i) => i !== anyOf && !others(i));
    if (rest.some((i) => i.path.startsWith('/body/'))) out = rest;
  }
  for (const oneOf of issues.filter((i) => i.message === ONE_OF && /\/document$/.test(i.path))) {
    const at = oneOf.path;
    const inside = (i: Issue) => i.path === at || i.path.startsWith(`${at}/`);
    const doc = valueAt(body, at);
    if (!isObject(doc)) continue;
    const hasText = 'text' in doc, hasContent = 'content' in doc;
    const replacement: Issue[] = [];
    if (hasText && hasContent) replacement.push({ path: at, message: 'must have exactly one of text and content, not both' });
    else if (!hasText && !hasContent) replacement.push({ path: at, message: 'must have text (the document\'s text) or content (the file in base64, with its mediaType)' });
    else if (hasContent && !('mediaType' in doc)) replacement.push({ path: `${at}/mediaType`, message: `is required with content: one of ${READ_MEDIA_TYPES}` });
    else if (hasContent && typeof doc.mediaType === 'string' && !fileMediaType(doc.mediaType)) {
      replacement.push({ path: `${at}/mediaType`, message: `must be one of ${READ_MEDIA_TYPES} with content: ${doc.mediaType} is not read` });
    }
    // What remains of the branch that was meant (text's limits, or content's): its own issues, without the other's.
    const meant = hasContent ? /\/(content|mediaType)$/ : /\/(text|mediaType|filename|vendorRenewalId)$/;
    const kept = out.filter((i) => inside(i) && i.message !== ONE_OF && !/^must have required property/.test(i.message) && meant.test(i.path)
      && !(hasContent && /\/mediaType$/.test(i.path) && replacement.length > 0));
    out = [...out.filter((i) => !inside(i)), ...replacement, ...kept];
  }
  return out;
}

/** Why a form's file has no media type that is read, naming what is: its extension, or its part's Content-Type. */
export function unreadFileMessage(filename: string | undefined, contentType: string | undefined): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename ?? '')?.[1];
  const what = extension ? `is a .${extension.toLowerCase()} file` : 'has no file name extension';
  const seen = contentType ? ` (its Content-Type is ${contentType})` : '';
  return `${what}${seen}, which is not read: send one of ${READ_MEDIA_TYPES} (by extension ${READ_EXTENSIONS}), or name its type in a mediaType field`;
}
