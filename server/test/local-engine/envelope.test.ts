// E-mail envelopes inside documents: a forwarded or quoted mail's headers (in the languages mail programs write them)
// are the mail's, not the document's: their dates, senders, recipients and subjects stay out of the document's fields,
// except where a finder reads the mail on purpose (a renewal notice's sender, a custom property asking for it).
import { segment } from '../../src/extraction/engines/local/segment/document.js';
import { extractCustom, extractFixed } from '../../src/extraction/engines/local/index.js';

const mail = (lines: string[]) => lines.join('\n');

describe('envelope blocks in the segmenter', () => {
  it.each([
    ['en (Outlook)', ['From: Jane Roe <jane@acme.example>', 'Sent: Tuesday, 3 March 2026 10:04', 'To: ap@buyer.example', 'Subject: RE: order']],
    ['de', ['Von: Jana Weber <j.weber@beispiel.de>', 'Gesendet: Dienstag, 3. März 2026 10:04', 'An: buchhaltung@kunde.de', 'Betreff: AW: Rechnung']],
    ['fr', ['De : Claire Martin <c.martin@exemple.fr>', 'Envoyé : mardi 3 mars 2026 10:04', 'À : compta@client.fr', 'Objet : TR: Facture']],
    ['es', ['De: Lucía Gómez <lgomez@ejemplo.mx>', 'Enviado el: martes, 3 de marzo de 2026 10:04', 'Para: pagos@cliente.mx', 'Asunto: RV: Factura']],
    ['pt', ['De: João Silva <joao@exemplo.pt>', 'Enviada em: terça-feira, 3 de março de 2026 10:04', 'Para: contas@cliente.pt', 'Assunto: ENC: Fatura']],
    ['it', ['Da: Marco Rossi <m.rossi@esempio.it>', 'Inviato: martedì 3 marzo 2026 10:04', 'A: amministrazione@cliente.it', 'Oggetto: I: Fattura']],
    ['nl', ['Van: Pieter de Vries <p.devries@voorbeeld.nl>', 'Verzonden: dinsdag 3 maart 2026 10:04', 'Aan: crediteuren@klant.nl', 'Onderwerp: Doorst: Factuur']],
    ['pl', ['Od: Anna Nowak <a.nowak@przyklad.pl>', 'Wysłano: wtorek, 3 marca 2026 10:04', 'Do: ksiegowosc@klient.pl', 'Temat: PD: Faktura']],
  ])('%s headers are the mail\'s', (_lang, header) => {
    const doc = segment(mail([...header, '', 'Invoice No: 4471', 'Total: 100.00']));
    expect([...doc.envelope].sort()).toEqual([0, 1, 2, 3]);
    expect(doc.mail.map((kv) => kv.line)).toEqual([0, 1, 2, 3]);
    expect(doc.kvs.map((kv) => kv.label)).toEqual(['Invoice No', 'Total']);
    expect(doc.bodyStart).toBe(4);
  });

  it.each([
    ['-----Original Message-----'], ['---------- Forwarded message ---------'], ['Begin forwarded message:'], ['-----Ursprüngliche Nachricht-----'],
    ['-------- Message d\'origine --------'], ['-------- Mensaje original --------'], ['-----Oorspronkelijk bericht-----'], ['-------- Oryginalna wiadomość --------'],
  ])('a separator (%s) opens an envelope even without addresses', (separator) => {
    const doc = segment(mail(['Thanks, see below.', '', separator, 'From: Tomás Ortega', 'Date: 13 March 2026', 'Subject: Minutes', '', 'Minutes of the meeting']));
    expect([...doc.envelope].sort()).toEqual([2, 3, 4, 5]);
    expect(doc.kvs).toEqual([]);
  });

  it('keeps a memo\'s own header block, which has no addresses, as the memo\'s', () => {
    const doc = segment(mail(['MEMORANDUM', 'To: All staff', 'From: Facilities', 'Date: 3 March 2026', 'Subject: Fire drill', '', 'The drill is on Friday.']));
    expect(doc.envelope.size).toBe(0);
    expect(doc.kvs.map((kv) => kv.label)).toEqual(['To', 'From', 'Date', 'Subject']);
  });

  it('keeps an invoice\'s `From:` and `To:` blocks as its parties', () => {
    const doc = segment(mail(['From: Lakeshore Consulting Group', '      88 Bay Street, Toronto', 'To:   Meridian Foods Inc.', '      3300 Bloor Street West', '', 'Date: January 31, 2026']));
    expect(doc.envelope.size).toBe(0);
  });
});

const FORWARDED_MINUTES = mail([
  'From: Priya Raman <priya.raman@northwind.example>',
  'Sent: Monday, 16 March 2026 09:12',
  'To: Board Members <board@northwind.example>',
  'Subject: FW: Minutes - Operations Committee',
  '',
  'Please see the minutes below.',
  '',
  '---------- Forwarded message ---------',
  'From: Tomás Ortega <tomas.ortega@northwind.example>',
  'Date: Fri, 13 Mar 2026 at 17:40',
  'Subject: Minutes - Operations Committee',
  'To: Priya Raman <priya.raman@northwind.example>',
  '',
  'Operations Committee - Minutes',
  'Meeting held on 12 March 2026',
  '',
  'Attendees: Tomás Ortega, Priya Raman, Li Wei',
  '',
  'Decisions:',
  '- Approve the new supplier for packaging.',
]);

describe('documents carried by mails', () => {
  it('takes a forwarded meeting\'s date and title from the minutes, not from the forwarding mails', () => {
    const notes = extractFixed('meeting-notes', FORWARDED_MINUTES);
    expect(notes.date).toBe('2026-03-12');
    expect(notes.title).toBe('Operations Committee');
    expect(notes.attendees).toEqual(['Tomás Ortega', 'Priya Raman', 'Li Wei']);
  });

  it('takes German minutes\' date from the minutes, not the `Gesendet:` line', () => {
    const notes = extractFixed('meeting-notes', mail([
      'Von: Jana Weber <j.weber@stadtwerke-beispiel.de>', 'Gesendet: Montag, 9. März 2026 08:30', 'An: Team Netzbetrieb <netz@stadtwerke-beispiel.de>',
      'Betreff: WG: Protokoll Jour fixe', '', 'Hallo zusammen,', 'anbei das Protokoll.', '',
      '-----Ursprüngliche Nachricht-----', 'Von: Tobias Brandt <t.brandt@stadtwerke-beispiel.de>', 'Gesendet: Freitag, 6. März 2026 16:05',
      'Betreff: Protokoll Jour fixe', '', 'Protokoll Jour fixe Netzbetrieb', 'Datum: 5. März 2026', 'Teilnehmer: Tobias Brandt, Jana Weber, Emre Yilmaz',
    ]));
    expect(notes.date).toBe('2026-03-05');
    expect(notes.attendees).toEqual(['Tobias Brandt', 'Jana Weber', 'Emre Yilmaz']);
  });

  it('reads notes sent as a mail\'s own text by their body, and names the meeting by the subject when nothing else does', () => {
    const notes = extractFixed('meeting-notes', mail([
      'From: Mette Holm <mh@fjordlogistik.example>', 'To: Expansion steering group', 'Sent: Thursday, 23 April 2026 08:14',
      'Subject: RE: Notes - Expansion Steering Group', '', 'Hi all,', '',
      'Below are the notes from yesterday\'s steering group (Wednesday 22 April 2026, Aarhus office).', '',
      'Attendees: Mette Holm, Lars Berg, Sofie Dahl',
    ]));
    expect(notes.date).toBe('2026-04-22');
    expect(notes.title).toBe('Expansion Steering Group');
  });

  it('never takes an invoice\'s vendor or customer from the mail that sent it', () => {
    const invoice = extractFixed('invoice', mail([
      'From: Sandra Kowalczyk <s.kowalczyk@accounts.example>', 'Sent: Tuesday, 3 March 2026 10:04', 'To: ap@harbourfoods.example',
      'Subject: Invoice 4471 for February deliveries', '', 'Hello, please find our invoice below.', '', 'INVOICE', 'Invoice No: 4471',
      'Invoice Date: 28/02/2026', '', 'Bill To:', 'Harbour Foods Ltd', '12 Quay Street', 'Galway H91 X2Y3', '', 'Fresh produce - February        1,240.00',
      '', 'Total: €1,240.00',
    ]));
    expect(invoice.vendor.name).toBeNull();
    expect(invoice.customer.name).toBe('Harbour Foods Ltd');
    expect(invoice.issueDate).toBe('2026-02-28');
    expect(invoice.total).toBe(1240);
  });

  it('takes a forwarded slip\'s date from the slip', () => {
    const receipt = extractFixed('receipt', mail([
      'From: Ana Lima <ana@example.com>', 'Sent: 20 March 2026 19:02', 'To: expenses@example.com', 'Subject: FW: taxi', '',
      '---------- Forwarded message ---------', 'From: Rides <no-reply@rides.example>', 'Date: 18 March 2026', 'Subject: Your receipt', '',
      'CITY CABS LTD', '18/03/2026 23:41', 'Fare 24.50', 'TOTAL £24.50',
    ]));
    expect(receipt.date).toBe('2026-03-18');
    expect(receipt.merchant).toBe('CITY CABS LTD');
  });

  it('still reads a renewal notice\'s sender, on purpose', () => {
    const renewal = extractFixed('renewal', mail([
      '-----Original Message-----', 'From: Tally Books Ltd <billing@tallybooks.example>', 'Sent: 2 June 2026 09:00', 'To: finance@client.example',
      'Subject: Your subscription renews soon', '', 'Your Tally Books Plus subscription renews automatically on 1 July 2026.',
    ]));
    expect(renewal.vendorName.value).toBe('Tally Books Ltd');
  });

  it('lets a custom property that asks for the mail read its header, and no other', () => {
    const schema = { type: 'object', properties: { senderEmail: { type: 'string' }, meetingDate: { type: 'string', format: 'date' } } } as const;
    const data = extractCustom(schema, FORWARDED_MINUTES);
    expect(data.senderEmail).toBe('Priya Raman <priya.raman@northwind.example>');
    // Not the forwarding mails' dates (16 and 13 March); the minutes state theirs only in a sentence the property's words do not label.
    expect(data.meetingDate).toBeNull();
  });
});
