import { extractFixed } from '../../src/extraction/engines/local/index.js';

describe('invoice', () => {
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

  it('reads European amounts in a | table and computes the due date from net terms', () => {
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
    expect(data.invoiceNumber).toBe('HB-2026-07');
    expect(data.issueDate).toBe('2026-03-02');
    expect(data.dueDate).toBe('2026-03-16');
    expect(data.lineItems).toEqual([{ description: 'Workshop', quantity: 2, unitPrice: 1250, amount: 2500 }]);
    expect([data.subtotal, data.tax, data.total, data.currency]).toEqual([2500, 475, 2975, 'EUR']);
  });

  it('answers null and [] for a document without invoice content', () => {
    const data = extractFixed('invoice', 'Hello, just checking in about lunch.');
    expect(data.lineItems).toEqual([]);
    expect([data.invoiceNumber, data.total, data.issueDate, data.customer.name]).toEqual([null, null, null, null]);
  });
});

describe('receipt', () => {
  it('reads merchant, address, date, time with AM/PM, items with counts, tip and tender', () => {
    const data = extractFixed('receipt', [
      'GRANITE STATE DINER',
      '77 Elm St',
      'Nashua, NH 03060',
      'Tel 603-555-0100',
      '',
      '04/18/2026  6:15 PM',
      '',
      '2 Pancakes stack      $15.00',
      'Coffee                 $2.75',
      '',
      'Subtotal              $17.75',
      'Tax                    $0.00',
      'Gratuity               $3.00',
      'Total                 $20.75',
      'AMEX ****3009         $20.75',
    ].join('\n'));
    expect(data).toEqual({
      merchant: 'GRANITE STATE DINER',
      address: '77 Elm St, Nashua, NH 03060',
      date: '2026-04-18',
      time: '18:15',
      items: [
        { description: 'Pancakes stack', quantity: 2, unitPrice: 7.5, amount: 15 },
        { description: 'Coffee', quantity: 1, unitPrice: 2.75, amount: 2.75 },
      ],
      subtotal: 17.75,
      tax: 0,
      tip: 3,
      total: 20.75,
      currency: 'USD',
      paymentMethod: 'AMEX',
    });
  });

  it('reads a day-first receipt with a labelled payment', () => {
    const data = extractFixed('receipt', 'Kiosk Blume\nMarktplatz 2, 50667 Köln\n\nDatum: 07/03/2026 Zeit: 10:02\nBlumenstrauß   12,50 €\nSumme   12,50 €\nPayment: Visa **** 1111');
    expect(data.date).toBe('2026-03-07');
    expect(data.total).toBe(12.5);
    expect(data.currency).toBe('EUR');
    expect(data.paymentMethod).toBe('Visa');
  });
});

describe('receipt address', () => {
  it('ends where the purchase begins: totals, priced lines and a tender alone are never address lines', () => {
    expect(extractFixed('receipt', 'CORNER SHOP\nTOTAL 3.00\nCASH').address).toBeNull();
    expect(extractFixed('receipt', 'CORNER SHOP\n12 High Street, Leeds\nTOTAL 3.00\nCASH').address).toBe('12 High Street, Leeds');
    expect(extractFixed('receipt', 'KIOSK 7\nStation Road 4\nCoffee 2.50\nTOTAL 2.50').address).toBe('Station Road 4');
  });
});
