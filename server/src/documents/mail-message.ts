import PostalMime, { type Address } from 'postal-mime';
import { htmlToText } from './html-text.js';
import { MAIL_LIMITS } from './limits.js';
import { problem } from './problems.js';

/** A file attached to an e-mail, as received: its name, declared media type and bytes. */
export interface MailAttachment {
  filename: string;
  declaredType: string | undefined;
  bytes: Uint8Array;
}

/** An e-mail read: its headers as lines (`From: ...`), its body as text, and its attachments. */
export interface Mail {
  headerLines: string[];
  body: string;
  attachments: MailAttachment[];
}

/** The lines that head an e-mail's text: who, when and what, as a reader sees them. */
export function headerLines(fields: { from?: string; to?: string; cc?: string; date?: string; subject?: string }): string[] {
  const lines: string[] = [];
  for (const [name, value] of [['From', fields.from], ['To', fields.to], ['Cc', fields.cc], ['Date', fields.date], ['Subject', fields.subject]] as const) {
    const clean = value?.replace(/\s+/g, ' ').trim();
    if (clean) lines.push(`${name}: ${clean}`);
  }
  return lines;
}

/** A file name without any folder part (`../../x.pdf` is `x.pdf`), never empty. */
export function safeFilename(name: string | null | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f]/g, '').trim();
  return base || fallback;
}

const addressText = (a: Address): string => (a.group ? `${a.name}: ${a.group.map(addressText).join(', ')}` : a.name ? `${a.name} <${a.address}>` : a.address ?? '');
const addressesText = (list: Address[] | undefined) => (list?.length ? list.map(addressText).join(', ') : undefined);

/** Lines that open a MIME part's boundary (`--...`): a cheap upper bound of the parts a message declares. */
function boundaryLines(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length - 2; i++) {
    if ((i === 0 || bytes[i - 1] === 0x0a) && bytes[i] === 0x2d && bytes[i + 1] === 0x2d) count++;
  }
  return count;
}

/**
 * Reads an Internet message (EML, RFC 5322/MIME) with postal-mime: From, To, Cc, Date and Subject; the body (its
 * HTML as text when it has one, else its plain text); and its attachments, each with its bytes (an attached message
 * too, as an attachment: it is read as an e-mail of its own). Images inside the HTML body (a logo in a signature) are
 * not attachments. Refused before they cost anything: more MIME parts than MAIL_LIMITS.mimeParts (counted on the
 * raw bytes, before parsing), nesting deeper than MAIL_LIMITS.mimeDepth (postal-mime's own limit), more attachments
 * than MAIL_LIMITS.attachments.
 */
export async function emlMessage(bytes: Uint8Array): Promise<Mail> {
  if (boundaryLines(bytes) > MAIL_LIMITS.mimeParts) {
    problem({ code: 'payload_too_large', message: `The e-mail declares more than ${MAIL_LIMITS.mimeParts} MIME parts; at most ${MAIL_LIMITS.mimeParts} are read.`, limit: MAIL_LIMITS.mimeParts });
  }
  let email;
  try {
    email = await PostalMime.parse(bytes, { maxNestingDepth: MAIL_LIMITS.mimeDepth, maxHeadersSize: 1024 * 1024, forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer' });
  } catch (e) {
    if (e instanceof Error && /nesting depth/i.test(e.message)) {
      return problem({ code: 'payload_too_large', message: `The e-mail nests MIME parts more than ${MAIL_LIMITS.mimeDepth} deep; at most ${MAIL_LIMITS.mimeDepth} levels are read.`, limit: MAIL_LIMITS.mimeDepth });
    }
    return problem({ code: 'document_unreadable', message: 'The e-mail cannot be read: its MIME structure is damaged.' });
  }
  const attachments = email.attachments.filter((a) => !(a.related && a.contentId && a.mimeType.startsWith('image/')));
  if (attachments.length > MAIL_LIMITS.attachments) tooManyAttachments(attachments.length);
  const body = email.html ? htmlToText(email.html) : (email.text ?? '').replace(/\r\n?/g, '\n').trim();
  const date = email.headers.find((h) => h.key === 'date')?.value ?? email.date;
  return {
    headerLines: headerLines({ from: email.from ? addressText(email.from) : undefined, to: addressesText(email.to), cc: addressesText(email.cc), date, subject: email.subject }),
    body,
    attachments: attachments.map((a, i) => ({
      filename: safeFilename(a.filename, `attachment-${i + 1}${a.mimeType === 'message/rfc822' ? '.eml' : ''}`),
      declaredType: a.mimeType,
      bytes: typeof a.content === 'string' ? new TextEncoder().encode(a.content) : new Uint8Array(a.content as ArrayBuffer),
    })),
  };
}

export function tooManyAttachments(count: number): never {
  return problem({ code: 'payload_too_large', message: `The e-mail has ${count.toLocaleString('en-US')} attachments; at most ${MAIL_LIMITS.attachments} are read.`, limit: MAIL_LIMITS.attachments });
}
