// The offline engine's invoice route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';
import { unfoldColumns } from '../../../src/extraction/engines/local/segment/document.js';

// Documents several fields' tests read, each read once here.
/** reads European amounts in a | table and computes the due date from net terms */
function readReadsEuropeanAmountsInATable() {
  const data = extractFixed('invoice', [
    'Rechnung',
    'Hafenblick Consulting GmbH, Speicherstadt 3, 20457 Hamburg',
    '',
    'Rechnungsnummer: HB-2026-07',
    'Datum: 02.03.2026',
    'Zahlungsbedingungen: Net 14',
    '',
    'Pos | Beschreibung | Menge | Einzelpreis | Betrag',
    '1 | Workshop | 2 | 1.250,00 € | 2.500,00 €',
    '',
    'Nettobetrag: 2.500,00 €',
    'MwSt 19%: 475,00 €',
    'Gesamtbetrag: 2.975,00 €',
  ].join('\n'));
  return { data };
}

/** answers null and [] for a document without invoice content */
function readAnswersNullAndForADocument() {
  const data = extractFixed('invoice', 'Hello, just checking in about lunch.');
  return { data };
}

/** reads `INVOICE NO.  BSE-0937` and `VAT No. GB 298 4471 02` in the letterhead */
function readReadsInvoiceNoBse0937And() {
  const data = extractFixed('invoice', [
    'BRIGHT SPARK ELECTRICAL',
    'Unit 4, Canal Works, Hebden Bridge HX7 8AD',
    'Tel: 01422 555 012  |  VAT No. GB 298 4471 02',
    '',
    '                                   INVOICE NO.  BSE-0937',
    '                                   DATE         14/03/2026',
    '',
    'Labour - rewire kitchen circuit        7.5    45.00     337.50',
    '',
    'INVOICE TOTAL                                           337.50',
    'Previous invoice BSE-0911 paid 02/03/2026.',
  ].join('\n'));
  return { data };
}

/** reads the issue and due dates from sentences, the customer after `Issued ... to:`, a named dollar and a GST/HST number */
function readReadsTheIssueAndDueDates() {
  const data = extractFixed('invoice', [
    'MAPLEHURST DESIGN STUDIO',
    '88 King Street West, Toronto, ON M5H 1A1',
    'GST/HST Reg. No. 70211 4433 RT0001',
    '',
    '                                  INVOICE No. MD-2026-14',
    '',
    'Issued on the twelfth of August 2026 to:',
    'Lakeshore Rowing Club',
    '400 Lake Shore Blvd, Toronto, ON M5V 1A5',
    '',
    'All amounts are in Canadian dollars.',
    '',
    '  Logo redesign ......................................... $1,800.00',
    '  Subtotal .............................................. $1,800.00',
    '  HST 13% ................................................. $234.00',
    '  Amount due ............................................ $2,034.00',
    '',
    'Please remit payment no later than the eleventh of September 2026.',
  ].join('\n'));
  return { data };
}

/** reads the name beside a title, a number beside an address, bilingual column heads and `Total taxes` */
function readReadsTheNameBesideATitle() {
  const data = extractFixed('invoice', [
    'OAKHILL METALWORKS LTD                              TAX INVOICE',
    'Unit 2, Forge Lane',
    'Leeds LS9 8AB                                       Invoice No:    OMW-2231',
    '',
    '| Omschrijving / Description | Aantal / Qty | Prijs / Unit | Bedrag / Amount |',
    '|----------------------------|--------------|--------------|-----------------|',
    '| Steel brackets             | 40           | £ 2,50       | £ 100,00        |',
    '',
    'Subtotal:      £ 100,00',
    'Total taxes:   £ 20,00',
    'Total:         £ 120,00',
  ].join('\n'));
  return { data };
}

/** reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column */
function readReadsALetterheadBesideTheInvoice() {
  const data = extractFixed('invoice', [
    'HOLMGREN VERKTYG AB                          INVOICE',
    'Kungsgatan 12                                Invoice No: HV-5521',
    '411 19 Göteborg, Sweden                      Invoice Date: 02.03.2026',
    'VAT: SE556677889901                          Due Date: 01.04.2026',
    '',
    'Bill To:                          Ship To:',
    'Fjord Bygg AS                     Fjord Bygg AS - Site 4',
    'Strandgata 3                      Kaiveien 9',
    '5013 Bergen, Norway               5003 Bergen, Norway',
    '',
    'Description              Qty    Unit Price      Amount',
    'Drill bits, set            4      1.250,00 kr    5.000,00 kr',
    '',
    'Subtotal:                                   5.000,00 SEK',
    'VAT 25%:                                    1.250,00 SEK',
    'Total:                                      6.250,00 SEK',
  ].join('\n'));
  return { data };
}

/** reads OCR-typo labels and skips page numbers, previous balances and quote dates */
function readReadsOcrTypoLabelsAndSkips() {
  const data = extractFixed('invoice', [
    'Page 1 of 2',
    '',
    'Lakeside Paper Co.',
    '55 Mill Road, Duluth, MN 55802',
    'Phone (218) 555-0101',
    '',
    'Invoce No: LP-300',
    'Invoice Date: the fifth of March 2026',
    'Dute Date: April 4, 2026',
    'Quote ref: Q-77 dated February 2, 2026',
    '',
    'Bill To:',
    'Pine Street Books',
    '12 Pine Street, Duluth, MN 55803',
    '',
    'Previous balance: $310.00 (paid on Feb 20, 2026)',
    '',
    'Copy paper, 10 reams        3     $42.00    $126.00',
    '',
    'Subtota1:   $126.00',
    'Sales tax:    $8.82',
    'Tota1 due:  $134.82',
  ].join('\n'));
  return { data };
}

describe("invoiceNumber", () => {
  it('reads European amounts in a | table and computes the due date from net terms', () => {
    const { data } = readReadsEuropeanAmountsInATable();
    expect(data.invoiceNumber).toBe('HB-2026-07');
  });

  it('answers null and [] for a document without invoice content', () => {
    const { data } = readAnswersNullAndForADocument();
    expect([data.invoiceNumber, data.total, data.issueDate, data.customer.name]).toEqual([null, null, null, null]);
  });

  it('reads `INVOICE NO.  BSE-0937` and `VAT No. GB 298 4471 02` in the letterhead', () => {
    const { data } = readReadsInvoiceNoBse0937And();
    expect(data.invoiceNumber).toBe('BSE-0937');
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.invoiceNumber).toBe('HV-5521');
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect(data.invoiceNumber).toBe('LP-300');
  });
});

describe("issueDate", () => {
  it('reads European amounts in a | table and computes the due date from net terms', () => {
    const { data } = readReadsEuropeanAmountsInATable();
    expect(data.issueDate).toBe('2026-03-02');
  });

  it('reads `INVOICE NO.  BSE-0937` and `VAT No. GB 298 4471 02` in the letterhead', () => {
    const { data } = readReadsInvoiceNoBse0937And();
    expect(data.issueDate).toBe('2026-03-14');
  });

  it('reads the issue and due dates from sentences, the customer after `Issued ... to:`, a named dollar and a GST/HST number', () => {
    const { data } = readReadsTheIssueAndDueDates();
    expect([data.issueDate, data.dueDate, data.currency, data.vendor.taxId]).toEqual(['2026-08-12', '2026-09-11', 'CAD', '70211 4433 RT0001']);
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.issueDate).toBe('2026-03-02');
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect(data.issueDate).toBe('2026-03-05');
  });
});

describe("dueDate", () => {
  it('reads European amounts in a | table and computes the due date from net terms', () => {
    const { data } = readReadsEuropeanAmountsInATable();
    expect(data.dueDate).toBe('2026-03-16');
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.dueDate).toBe('2026-04-01');
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect(data.dueDate).toBe('2026-04-04');
  });
});

describe("lineItems", () => {
  it('reads European amounts in a | table and computes the due date from net terms', () => {
    const { data } = readReadsEuropeanAmountsInATable();
    expect(data.lineItems).toEqual([{ description: 'Workshop', quantity: 2, unitPrice: 1250, amount: 2500 }]);
  });

  it('answers null and [] for a document without invoice content', () => {
    const { data } = readAnswersNullAndForADocument();
    expect(data.lineItems).toEqual([]);
  });

  it('keeps a parenthesised note in the description and drops a quantity and price that do not multiply out', () => {
    const data = extractFixed('invoice', 'Greenleaf Catering Ltd\n1 Way, Reading\n\nInvoice number: GC-1\n\nDescription                                   Amount\nWaiting staff (4 x 6 hours @ £18.50)           £444.00\n\nTotal                                          £444.00');
    expect(data.lineItems).toEqual([{ description: 'Waiting staff (4 x 6 hours @ £18.50)', quantity: 1, unitPrice: 444, amount: 444 }]);
  });

  it('reads the name beside a title, a number beside an address, bilingual column heads and `Total taxes`', () => {
    const { data } = readReadsTheNameBesideATitle();
    expect(data.lineItems).toEqual([{ description: 'Steel brackets', quantity: 40, unitPrice: 2.5, amount: 100 }]);
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect(data.lineItems).toEqual([{ description: 'Copy paper, 10 reams', quantity: 3, unitPrice: 42, amount: 126 }]);
  });
});

describe("subtotal", () => {
  it('reads European amounts in a | table and computes the due date from net terms', () => {
    const { data } = readReadsEuropeanAmountsInATable();
    expect([data.subtotal, data.tax, data.total, data.currency]).toEqual([2500, 475, 2975, 'EUR']);
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect([data.subtotal, data.tax, data.total]).toEqual([126, 8.82, 134.82]);
  });
});

describe("vendor.taxId", () => {
  it('reads `INVOICE NO.  BSE-0937` and `VAT No. GB 298 4471 02` in the letterhead', () => {
    const { data } = readReadsInvoiceNoBse0937And();
    expect(data.vendor.taxId).toBe('GB 298 4471 02');
  });
});

describe("customer", () => {
  it('reads the issue and due dates from sentences, the customer after `Issued ... to:`, a named dollar and a GST/HST number', () => {
    const { data } = readReadsTheIssueAndDueDates();
    expect(data.customer).toEqual({ name: 'Lakeshore Rowing Club', address: '400 Lake Shore Blvd, Toronto, ON M5V 1A5', taxId: null });
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.customer).toEqual({ name: 'Fjord Bygg AS', address: 'Strandgata 3, 5013 Bergen, Norway', taxId: null });
  });
});

describe("vendor.name", () => {
  it('skips a bilingual title line above the letterhead', () => {
    const data = extractFixed('invoice', '                FAKTURA / INVOICE\n\nPolarbyte AS\nStorgata 5, 0155 Oslo\n\nInvoice No.: PB-77\nTotal: NOK 1 250,00\n');
    expect(data.vendor.name).toBe('Polarbyte AS');
  });

  it('reads the name beside a title, a number beside an address, bilingual column heads and `Total taxes`', () => {
    const { data } = readReadsTheNameBesideATitle();
    expect([data.vendor.name, data.invoiceNumber, data.tax]).toEqual(['OAKHILL METALWORKS LTD', 'OMW-2231', 20]);
  });

  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
    const { data } = readReadsOcrTypoLabelsAndSkips();
    expect(data.vendor.name).toBe('Lakeside Paper Co.');
  });
});

describe("vendor", () => {
  it('reads a letterhead written on one line with middle dots, under a copy mark in brackets', () => {
    const data = extractFixed('invoice', [
      '              (Duplicate for Transporter)',
      'Atelier Brandt KG · Lindenstraße 14 · 10969 Berlin',
      '',
      'Rechnung Nr. AB-5512',
      'Datum: 12.05.2026',
      'Gesamtbetrag: 1.190,00 €',
    ].join('\n'));
    expect(data.vendor).toEqual({ name: 'Atelier Brandt KG', address: 'Lindenstraße 14, 10969 Berlin', taxId: null });
  });

  it('leaves business and licence numbers under the letterhead out of the address', () => {
    const data = extractFixed('invoice', [
      'Reef Coast Electrical',
      'ACN 612 448 901',
      'Electrical Contractor Licence No. 77412',
      '14 Esplanade, Townsville QLD 4810',
      '',
      'Invoice: RCE-208',
      'Total: $880.00',
    ].join('\n'));
    expect(data.vendor.name).toBe('Reef Coast Electrical');
    expect(data.vendor.address).toBe('14 Esplanade, Townsville QLD 4810');
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.vendor).toEqual({ name: 'HOLMGREN VERKTYG AB', address: 'Kungsgatan 12, 411 19 Göteborg, Sweden', taxId: 'SE556677889901' });
  });
});

describe("total", () => {
  it('reads Indian digit grouping, a taxable value, CGST and SGST lines and the tax total', () => {
    const data = extractFixed('invoice', [
      'Vasant Textiles Private Limited',
      'Plot 22, MIDC Bhosari, Pune 411026',
      '',
      'Tax Invoice No: VT/26-27/0147',
      'Invoice Date: 14/05/2026',
      '',
      'Description            Qty    Rate          Amount',
      'Cotton shirting (m)    1500   120.00        1,80,000.00',
      '',
      'Taxable Value : 1,80,000.00',
      'CGST @ 2.5%   : 4,500.00',
      'SGST @ 2.5%   : 4,500.00',
      'Total Tax     : 9,000.00',
      'Grand Total   : ₹ 1,89,000.00',
    ].join('\n'));
    expect([data.subtotal, data.tax, data.total, data.currency]).toEqual([180000, 9000, 189000, 'INR']);
    expect(data.lineItems).toEqual([{ description: 'Cotton shirting (m)', quantity: 1500, unitPrice: 120, amount: 180000 }]);
  });

  it('adds tax lines up when no line totals them', () => {
    const data = extractFixed('invoice', 'Maple Print Co.\nInvoice: MP-9\nSubtotal: $100.00\nGST 5%: $5.00\nPST 7%: $7.00\nTotal: $112.00');
    expect([data.subtotal, data.tax, data.total]).toEqual([100, 12, 112]);
  });

  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
    const { data } = readReadsALetterheadBesideTheInvoice();
    expect(data.total).toBe(6250);
  });
});

describe("whole answer", () => {
  it('reads a letterhead, a Bill To block, an aligned table and totals', () => {
    const data = extractFixed('invoice', [
      'Quillon Print Works',
      '8 Mill Lane, Sheffield S1 2AB',
      'VAT Reg No: GB 998 1234 55',
      '',
      'INVOICE',
      'Invoice No: QP-1182',
      'Invoice Date: 5 May 2026',
      'Due Date: 19 May 2026',
      '',
      'Bill To:',
      'Foxglove Events Ltd',
      '3 Canal Street',
      'Manchester M1 3HE',
      '',
      'Description            Qty   Unit Price      Amount',
      'Flyers A5 (box)          4       £35.00     £140.00',
      'Banner, vinyl            1       £90.00      £90.00',
      '',
      'Subtotal                                    £230.00',
      'VAT 20%                                      £46.00',
      'Total                                       £276.00',
    ].join('\n'));
    expect(data).toEqual({
      invoiceNumber: 'QP-1182',
      issueDate: '2026-05-05',
      dueDate: '2026-05-19',
      vendor: { name: 'Quillon Print Works', address: '8 Mill Lane, Sheffield S1 2AB', taxId: 'GB 998 1234 55' },
      customer: { name: 'Foxglove Events Ltd', address: '3 Canal Street, Manchester M1 3HE', taxId: null },
      lineItems: [
        { description: 'Flyers A5 (box)', quantity: 4, unitPrice: 35, amount: 140 },
        { description: 'Banner, vinyl', quantity: 1, unitPrice: 90, amount: 90 },
      ],
      subtotal: 230,
      tax: 46,
      total: 276,
      currency: 'GBP',
    });
  });

  it('keeps `Label:      value` columns together and keeps registration numbers out of the address', () => {
    const lines = ['Invoice Nr:      BT/2026/0412', 'Issue date:      21 April 2026'];
    expect(unfoldColumns(lines)).toEqual(lines);
    const data = extractFixed('invoice', [
      'Kalda Metall OÜ',
      'Tartu mnt 5, 10115 Tallinn, Estonia',
      'Reg. code 1234567 | VAT No: EE100200300',
      '',
      'Invoice Nr:      KM/26/7',
      'Issue date:      21 April 2026',
      'Due date:        5 May 2026',
      '',
      'Steel rods        10     12,00     120,00',
      '',
      'Total to pay                     120,00 EUR',
    ].join('\n'));
    expect(data.invoiceNumber).toBe('KM/26/7');
    expect([data.issueDate, data.dueDate]).toEqual(['2026-04-21', '2026-05-05']);
    expect(data.vendor).toEqual({ name: 'Kalda Metall OÜ', address: 'Tartu mnt 5, 10115 Tallinn, Estonia', taxId: 'EE100200300' });
  });

  it.each([
    ['Invoice QX-2291\nBill To: Pell & Sons\nTotal: $310.00', 'QX-2291'],
    ['TAX INVOICE TI/2026/118\nTotal due: £84.00', 'TI/2026/118'],
    ['Rechnung RE-2026-04\nGesamtbetrag: 120,00 €', 'RE-2026-04'],
  ])('a title line with one code: %j', (text, want) => expect(extractFixed('invoice', text).invoiceNumber).toBe(want));

  it('a title line with a date is no number', () => expect(extractFixed('invoice', 'Invoice 2026-03-01\nTotal: $12.00').invoiceNumber).toBeNull());
});
