// The wrong values issue 28 lists, each on a newly written document of the same kind: the general cause fixed, the
// value now right (or, where the document does not state it, null).
import { extractCustom, extractFixed } from '../../src/extraction/engines/local/index.js';

describe('values the offline engine used to get wrong on unfamiliar documents', () => {
  it('`€ 936.000,00` is nine hundred and thirty-six thousand, in a table and on a summary line, and so is `€ 936.000,-`', () => {
    const invoice = extractFixed('invoice', [
    "Bouwbedrijf De Vries B.V.",
    "Keizersgracht 112",
    "1015 CV Amsterdam",
    "KvK 12345678  BTW NL812345678B01",
    "",
    "FACTUUR",
    "",
    "Factuurnummer: 2026-0419",
    "Factuurdatum: 14 maart 2026",
    "Vervaldatum: 13 april 2026",
    "",
    "Klant:",
    "Gemeente Haarlemmermeer",
    "Raadhuisplein 1",
    "2132 TZ Hoofddorp",
    "",
    "Omschrijving                         Aantal    Prijs          Bedrag",
    "Renovatie sporthal fase 2                 1    € 936.000,00   € 936.000,00",
    "Projectbegeleiding (uren)               120    € 95,00        € 11.400,00",
    "",
    "Subtotaal                                                     € 947.400,00",
    "BTW 21%                                                       € 198.954,00",
    "Totaal te betalen                                             € 1.146.354,00",
  ].join('\n'));
    expect(invoice.lineItems[0]).toEqual({ description: 'Renovatie sporthal fase 2', quantity: 1, unitPrice: 936000, amount: 936000 });
    expect([invoice.subtotal, invoice.tax, invoice.total, invoice.currency]).toEqual([947400, 198954, 1146354, 'EUR']);
    const contract = extractFixed('contract', ['AANNEMINGSOVEREENKOMST', '', 'Opdrachtgever: Gemeente Haarlemmermeer', 'Opdrachtnemer: Bouwbedrijf De Vries B.V.', '',
      'Aanneemsom: € 936.000,- exclusief btw', 'Ingangsdatum: 1 april 2026'].join('\n'));
    expect([contract.totalValue, contract.currency, contract.effectiveDate]).toEqual([936000, 'EUR', '2026-04-01']);
  });

  it('`₦` is the naira, never the pound', () => {
    const invoice = extractFixed('invoice', [
    "ADEBAYO & SONS LOGISTICS LTD",
    "14 Creek Road, Apapa, Lagos",
    "TIN: 01234567-0001",
    "",
    "INVOICE",
    "",
    "Invoice No: ASL/2026/0311",
    "Date: 11/03/2026",
    "",
    "Bill To:",
    "Zenith Agro Processing Plc",
    "Plot 7 Trans-Amadi Industrial Layout",
    "Port Harcourt, Rivers State",
    "",
    "Description                    Qty    Unit Price       Amount",
    "Haulage Lagos - Kano (40ft)      2    ₦850,000.00    ₦1,700,000.00",
    "Demurrage (days)                 3    ₦45,000.00     ₦135,000.00",
    "",
    "Subtotal                                           ₦1,835,000.00",
    "VAT (7.5%)                                         ₦137,625.00",
    "Total Due                                          ₦1,972,625.00",
    "",
    "Payment to: GTBank, Account 0123456789, sort code 058152052",
  ].join('\n'));
    expect(invoice.currency).toBe('NGN');
    expect([invoice.subtotal, invoice.tax, invoice.total]).toEqual([1835000, 137625, 1972625]);
    // `11/03/2026` in a naira document is written day first.
    expect(invoice.issueDate).toBe('2026-03-11');
    expect(invoice.lineItems).toEqual([
      { description: 'Haulage Lagos - Kano (40ft)', quantity: 2, unitPrice: 850000, amount: 1700000 },
      { description: 'Demurrage (days)', quantity: 3, unitPrice: 45000, amount: 135000 },
    ]);
  });

  it('`$86,400.00 M.N.` is in Mexican pesos, and so is every bare `$` of the document', () => {
    const invoice = extractFixed('invoice', [
    "SERVICIOS INDUSTRIALES DEL BAJÍO S.A. DE C.V.",
    "RFC: SIB150312AB4",
    "Av. Tecnológico 1500, Col. Centro",
    "76000 Santiago de Querétaro, Qro.",
    "",
    "FACTURA",
    "Folio: A-2291",
    "Fecha de emisión: 14/03/2026",
    "",
    "Cliente:",
    "Autopartes Norte S.A. de C.V.",
    "Blvd. Díaz Ordaz 3300, Monterrey, N.L.",
    "",
    "Descripción                              Cantidad     Precio unitario      Importe",
    "Mantenimiento preventivo de prensas             2          $28,750.00   $57,500.00",
    "Refacciones (kit de sellos)                     1          $16,982.76   $16,982.76",
    "",
    "Subtotal                                                            $74,482.76",
    "IVA 16%                                                             $11,917.24",
    "Total                                                       $86,400.00 M.N.",
    "",
    "(Ochenta y seis mil cuatrocientos pesos 00/100 M.N.)",
  ].join('\n'));
    expect(invoice).toMatchObject({
      invoiceNumber: 'A-2291', issueDate: '2026-03-14', vendor: { name: 'SERVICIOS INDUSTRIALES DEL BAJÍO S.A. DE C.V.', taxId: 'SIB150312AB4' },
      customer: { name: 'Autopartes Norte S.A. de C.V.' }, subtotal: 74482.76, tax: 11917.24, total: 86400, currency: 'MXN',
    });
  });

  it('a probation of `six (6) months` is 6, never -6', () => {
    const schema = { type: 'object', properties: { probationMonths: { type: 'integer', description: 'Length of the probation period in months' }, noticeMonths: { type: 'integer' } } } as const;
    const text = ['Dear Ms Achterberg,', '', 'We are pleased to offer you the position of Site Engineer.', '', '1. Start date: 1 May 2026.',
      '2. Probation: the first six (6) months of employment form a probation period.', '3. Notice: one (1) month for either party.'].join('\n');
    expect(extractCustom(schema, text)).toEqual({ probationMonths: 6, noticeMonths: 1 });
  });

  it('a CGPA is the figure its label stands before, never a neighbouring count', () => {
    const schema = { type: 'object', properties: { studentName: { type: 'string' }, cgpa: { type: 'number', description: 'Cumulative grade point average' } } } as const;
    expect(extractCustom(schema, 'Statement of Result\nName of Student: Chiamaka Okonkwo\nCredits earned: 44 CGPA: 3.62\n')).toEqual({ studentName: 'Chiamaka Okonkwo', cgpa: 3.62 });
    expect(extractCustom(schema, 'Statement of Result\nName of Student: Chiamaka Okonkwo\nTotal credits earned 144 CGPA 3.62\n').cgpa).toBe(3.62);
    // A clause's number is no value: `2. Contract Sum`.
    expect(extractCustom({ type: 'object', properties: { contractSum: { type: 'number' } } }, '1. Term. Twelve months.\n2. Contract Sum. As agreed in the schedule.').contractSum).toBeNull();
  });

  it('a meeting\'s date is the meeting\'s, not the forwarding mail\'s `Sent:` or `Date:`', () => {
    const notes = extractFixed('meeting-notes', ['From: Ravi Menon <ravi@harbourtrust.example>', 'Sent: Thursday, 19 March 2026 18:02', 'To: Trustees <trustees@harbourtrust.example>',
      'Subject: FW: Minutes of the Finance Sub-committee', '', '-----Original Message-----', 'From: Grace Adeyemi <grace@harbourtrust.example>',
      'Date: Wed, 18 Mar 2026 09:10', 'Subject: Minutes of the Finance Sub-committee', '', 'Finance Sub-committee', 'Minutes of the meeting held on 17 March 2026', '',
      'Present: Grace Adeyemi, Ravi Menon, Tom Hale'].join('\n'));
    expect(notes.date).toBe('2026-03-17');
  });

  it('a vendor is the invoice\'s, never the mail\'s sender (Polish headers)', () => {
    const invoice = extractFixed('invoice', ['Od: Katarzyna Lis <k.lis@biuro-rachunkowe.example>', 'Wysłano: poniedziałek, 16 marca 2026 09:30', 'Do: faktury@klient.example',
      'Temat: Faktura FV/2026/03/077', '', 'Dzień dobry,', 'w załączeniu faktura.', '', 'FAKTURA VAT nr FV/2026/03/077', 'Data wystawienia: 16.03.2026', '',
      'Sprzedawca:', 'Piekarnia Złoty Kłos Sp. z o.o.', 'ul. Polna 3', '00-001 Warszawa', '', 'Do zapłaty: 1 230,00 zł'].join('\n'));
    expect(invoice.vendor.name).toBe('Piekarnia Złoty Kłos Sp. z o.o.');
    expect(invoice.customer.name).toBeNull();
    expect([invoice.invoiceNumber, invoice.issueDate, invoice.total, invoice.currency]).toEqual(['FV/2026/03/077', '2026-03-16', 1230, 'PLN']);
  });
});
