// E-mail envelopes inside a document: the header blocks of a forwarded or quoted message (`From:`, `Sent:`, `To:`,
// `Subject:` and their forms in other languages), the separators that open them (`-----Original Message-----`,
// `---------- Forwarded message ---------`, `Begin forwarded message:`) and `On ... wrote:` lines. Their dates, senders
// and subjects belong to the mail, not to the document it carries: the segmenter keeps their pairs apart (`doc.mail`),
// and finders that read the top of a document start where the carried document does (`bodyStart`).
import { labelKey } from './text.js';

export type HeaderKind = 'from' | 'to' | 'cc' | 'sent' | 'date' | 'subject' | 'replyTo';

/** Header labels of mail programs, by kind, in the languages the engine reads (label keys: lower case, words only). */
export const MAIL_HEADER_LABELS: Record<HeaderKind, string[]> = {
  from: ['from', 'von', 'de', 'da', 'van', 'od', 'från', 'fra', 'lähettäjä', 'feladó', 'kimden', 'dari', 'từ', 'sender', '发件人', '寄件者', '寄件人', '差出人',
    '보낸 사람', '보낸사람', 'من', 'από', 'expéditeur', 'remitente', 'mittente', 'remetente', 'afzender', 'nadawca', 'avsändare', 'afsender', 'avsender', 'odesílatel'],
  to: ['to', 'an', 'à', 'a', 'para', 'aan', 'do', 'till', 'til', 'vastaanottaja', 'címzett', 'kime', 'kepada', 'đến', '收件人', '宛先', '받는 사람', '받는사람',
    'إلى', 'الى', 'προς', 'komu', 'destinataire', 'destinatario', 'destinatário', 'ontvanger', 'odbiorca', 'mottagare', 'modtager', 'mottaker'],
  cc: ['cc', 'bcc', 'kopie', 'copie', 'cópia', 'copia', 'dw', 'kopia', 'kopio', 'másolat', 'bilgi', 'tembusan', '抄送', '副本', '参照', '참조', 'نسخة', 'κοιν'],
  sent: ['sent', 'gesendet', 'envoyé', 'envoye', 'enviado', 'enviada', 'inviato', 'verzonden', 'wysłano', 'wysłane', 'skickat', 'skickades', 'sendt',
    'lähetetty', 'elküldve', 'küldve', 'gönderildi', 'gönderilme tarihi', 'dikirim', 'đã gửi', '发送时间', '寄件日期', '送信日時', '보낸 날짜', 'تاريخ الإرسال',
    'εστάλη', 'odesláno', 'sent date', 'enviado el', 'enviada em', 'enviado em', 'envoyé le', 'gesendet am', 'inviato il', 'verzonden op', 'wysłano dnia'],
  date: ['date', 'datum', 'fecha', 'data', 'dato', 'päivämäärä', 'dátum', 'tarih', 'tanggal', 'ngày', '日期', '日付', '날짜', 'التاريخ', 'ημερομηνία'],
  subject: ['subject', 'betreff', 'objet', 'asunto', 'assunto', 'oggetto', 'onderwerp', 'temat', 'ämne', 'emne', 'aihe', 'tárgy', 'konu', 'perihal', 'chủ đề',
    '主题', '主旨', '件名', '제목', 'الموضوع', 'θέμα', 'předmět', 're'],
  replyTo: ['reply to', 'antwort an', 'répondre à', 'responder a', 'rispondi a', 'antwoord aan', 'odpowiedz do', 'svara till'],
};

const KIND_OF = new Map<string, HeaderKind>();
for (const [kind, labels] of Object.entries(MAIL_HEADER_LABELS) as [HeaderKind, string[]][]) for (const l of labels) KIND_OF.set(labelKey(l), kind);

/** The words of separators that open a forwarded message; a separator without them opens a quoted (replied-to) one. */
const FORWARD_WORDS = String.raw`forward|weitergeleitet|transf[ée]r|r[ée]exp[ée]di|reenviad|inoltrat|encaminhad|reencaminhad|doorgestuurd|przekazan|vidarebefordrat|videresendt|välitetty|přeposlan|továbbított|iletilen|terusan|chuyển tiếp|转发|轉寄|転送|전달|معاد توجيه|προωθημένο`;
const FORWARD = new RegExp(FORWARD_WORDS, 'iu');
const SEPARATOR_WORDS = String.raw`original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|message d'origine|message transféré|mensaje original|mensaje reenviado|messaggio originale|messaggio inoltrato|mensagem original|mensagem encaminhada|oorspronkelijk bericht|doorgestuurd bericht|oryginalna wiadomość|wiadomość przekazana|przekazana wiadomość|ursprungligt meddelande|vidarebefordrat meddelande|opprinnelig melding|videresendt melding|oprindelig meddelelse|videresendt meddelelse|alkuperäinen viesti|välitetty viesti|původní zpráva|přeposlaná zpráva|eredeti üzenet|továbbított üzenet|orijinal mesaj|iletilen ileti|pesan asli|pesan terusan|tin nhắn gốc|tin nhắn chuyển tiếp|原始邮件|原始郵件|转发的邮件|転送メッセージ|元のメッセージ|전달된 메시지|원본 메시지|الرسالة الأصلية|رسالة معاد توجيهها|αρχικό μήνυμα|προωθημένο μήνυμα`;
/** `-----Original Message-----`, `---------- Forwarded message ---------`, `-------- Message d'origine --------`. */
const SEPARATOR = new RegExp(String.raw`^\s*[-_=*]*\s*(?:${SEPARATOR_WORDS})\s*[-_=*]*\s*$`, 'iu');
/** `Begin forwarded message:` (Apple Mail) in its languages. */
const BEGIN_FORWARDED = /^\s*(?:begin forwarded message|début du message réexpédié|anfang der weitergeleiteten nachricht|inicio del mensaje reenviado|início da mensagem reencaminhada|inizio messaggio inoltrato|begin doorgestuurd bericht)\s*:?\s*$/iu;
/** `On Tue, 3 Mar 2026 at 10:04, Jane <jane@x> wrote:` and its forms. */
const WROTE = /^\s*(?:on|am|le|el|il|em|op|w dniu|den|på|dne|\d).{4,200}(?:wrote|schrieb|a écrit|escribió|ha scritto|escreveu|schreef|napisał|napisała|skrev|kirjoitti|napsal|írta|yazdı|menulis|đã viết)\s*:\s*$/iu;
/** Outlook's rule above a quoted message's headers. */
const RULE = /^\s*_{8,}\s*$/;
/** A subject that forwards (`FW:`, `Fwd:`, `WG:`, `TR:`, `RV:`, `Doorst:`, `PD:`, `VS:`, `VB:`, `I:`, `ENC:`, `转发:`). */
const FORWARD_SUBJECT = /^\s*(?:fwd?|wg|tr|rv|doorst|pd|vs|vb|i|enc|iletildi|转发|轉寄|転送)\s*[:：]/iu;
/** A subject that replies (`RE:`, `AW:`, `SV:`, `Antw:`, `R:`, `Odp:`, `回复:`). */
const REPLY_SUBJECT = /^\s*(?:re|aw|sv|antw|odp|r|ynt|回复|回覆|답장)\s*[:：]/iu;

const HEADER = /^\s*\**\s*([\p{L}][\p{L}\p{M} .'-]{0,30}?)\s*\**\s*[:：]\s*\**\s*(.*)$/u;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

export interface Header { line: number; kind: HeaderKind; label: string; value: string }

/** A line's mail header, if it is one. */
export function headerOf(text: string, line: number): Header | null {
  if (!text.includes(':') && !text.includes('：')) return null;
  const m = HEADER.exec(text);
  if (!m) return null;
  const kind = KIND_OF.get(labelKey(m[1]!));
  return kind ? { line, kind, label: m[1]!.trim(), value: m[2]!.replace(/\*+$/, '').trim() } : null;
}

export interface Envelopes {
  /** Every line that belongs to an envelope: separators, header lines, `wrote:` lines. */
  lines: Set<number>;
  headers: Header[];
  /** The first line of the carried document: after the envelope at the top, after the last forwarded message's. */
  bodyStart: number;
}

/**
 * The envelopes of a document. A run of header lines is one when a separator opens it, or when it reads like a mail
 * program's: a sender and at least one of a recipient, a sent date or a subject, and an address, a `Sent:` line or a
 * forwarding or replying subject. A memo's own `To: / From: / Date: / Subject:` block, with no address, stays the memo's.
 */
export function findEnvelopes(texts: string[]): Envelopes {
  const lines = new Set<number>();
  const headers: Header[] = [];
  const blocks: { start: number; end: number; forwarded: boolean; forwards: boolean }[] = [];
  const firstText = texts.findIndex((t) => t.trim() !== '');
  let opened: { line: number; forward: boolean } | null = null;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (SEPARATOR.test(t) || BEGIN_FORWARDED.test(t) || RULE.test(t)) {
      opened = { line: i, forward: FORWARD.test(t) };
      if (!RULE.test(t)) lines.add(i);
      continue;
    }
    if (WROTE.test(t) && t.length <= 260) { lines.add(i); continue; }
    const first = headerOf(t, i);
    if (!first) { if (t.trim()) opened = null; continue; }
    // The run of header lines from here (a wrapped recipient list continues the line above).
    const run: Header[] = [first];
    let j = i + 1;
    for (; j < texts.length; j++) {
      const h = headerOf(texts[j]!, j);
      if (h) { run.push(h); continue; }
      if (texts[j]!.trim() && /^\s+\S/.test(texts[j]!) && /[@;,]/.test(texts[j]!) && run[run.length - 1]!.kind !== 'subject') continue;
      break;
    }
    const kinds = new Set(run.map((h) => h.kind));
    const subject = run.find((h) => h.kind === 'subject')?.value ?? '';
    const mailLike = kinds.has('from') && (kinds.has('to') || kinds.has('sent') || kinds.has('subject') || kinds.has('date'))
      && (run.some((h) => (h.kind === 'from' || h.kind === 'to' || h.kind === 'cc') && EMAIL.test(h.value)) || kinds.has('sent') || FORWARD_SUBJECT.test(subject) || REPLY_SUBJECT.test(subject));
    const afterSeparator = opened !== null && run.length >= 2 && kinds.has('from');
    if (mailLike || afterSeparator) {
      for (let k = i; k < j; k++) lines.add(k);
      headers.push(...run);
      blocks.push({ start: opened?.line ?? i, end: j, forwarded: opened?.forward ?? false, forwards: FORWARD_SUBJECT.test(subject) });
    }
    opened = null;
    i = j - 1;
  }
  // The carried document starts after the envelope at the top; when a mail forwards another, after the forwarded one's.
  let bodyStart = blocks[0] && blocks[0].start <= firstText ? blocks[0].end : 0;
  const forwarded = blocks.filter((b, k) => b.forwarded || k > 0 && blocks[0]!.forwards && blocks[0]!.start <= firstText);
  if (forwarded.length) bodyStart = forwarded[forwarded.length - 1]!.end;
  return { lines, headers, bodyStart };
}
