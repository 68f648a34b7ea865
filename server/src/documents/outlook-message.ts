import msgreader, { type FieldsData } from '@kenjiuno/msgreader';
import { htmlToText } from './html-text.js';
import { headerLines, safeFilename, tooManyAttachments, type Mail } from './mail-message.js';
import { MAIL_LIMITS } from './limits.js';
import { DocumentProblemError, problem } from './problems.js';

// A CommonJS module whose class is its `default` export: Node's ESM loader hands over the module object.
const MsgReader = msgreader.default;

const recipients = (fields: FieldsData, type: 'to' | 'cc') => {
  const list = (fields.recipients ?? []).filter((r) => (r.recipType ?? 'to') === type);
  return list.length ? list.map((r) => (r.name && r.email && r.name !== r.email ? `${r.name} <${r.email}>` : r.email ?? r.name ?? '')).join(', ') : undefined;
};

/**
 * Reads an Outlook message (MSG, an OLE compound file) with @kenjiuno/msgreader: sender, recipients, the time it was
 * sent, subject, body (HTML as text when present, else plain text) and attachments (an embedded message is rebuilt
 * as a MSG file of its own and read as an e-mail). Hidden attachments (images of the HTML body) are left out. More
 * attachments than MAIL_LIMITS.attachments are refused before any is read.
 */
export function msgMessage(bytes: Uint8Array): Mail {
  try {
    const reader = new MsgReader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const fields = reader.getFileData();
    if (fields.error) return problem({ code: 'document_unreadable', message: 'The MSG file cannot be read: it is damaged or not an Outlook message.' });
    const listed = (fields.attachments ?? []).filter((a: FieldsData) => !(a.attachmentHidden && a.pidContentId));
    if (listed.length > MAIL_LIMITS.attachments) tooManyAttachments(listed.length);
    const html = fields.bodyHtml ?? (fields.html ? new TextDecoder('utf-8').decode(fields.html) : undefined);
    const body = html ? htmlToText(html) : (fields.body ?? '').replace(/\r\n?/g, '\n').trim();
    const from = fields.senderName && fields.senderEmail && fields.senderName !== fields.senderEmail ? `${fields.senderName} <${fields.senderEmail}>` : fields.senderEmail ?? fields.senderName;
    return {
      headerLines: headerLines({ from, to: recipients(fields, 'to'), cc: recipients(fields, 'cc'), date: fields.clientSubmitTime ?? fields.messageDeliveryTime ?? fields.creationTime, subject: fields.subject }),
      body,
      attachments: listed.map((a: FieldsData, i: number) => {
        const data = reader.getAttachment(a);
        const filename = safeFilename(a.fileName ?? a.fileNameShort ?? data.fileName, `attachment-${i + 1}${a.innerMsgContent ? '.msg' : ''}`);
        return { filename: a.innerMsgContent && !/\.msg$/i.test(filename) ? `${filename}.msg` : filename, declaredType: a.innerMsgContent ? 'application/vnd.ms-outlook' : a.attachMimeTag, bytes: data.content };
      }),
    };
  } catch (e) {
    if (e instanceof DocumentProblemError) throw e;
    return problem({ code: 'document_unreadable', message: 'The MSG file cannot be read: it is damaged or not an Outlook message.' });
  }
}

export { MAIL_LIMITS };
