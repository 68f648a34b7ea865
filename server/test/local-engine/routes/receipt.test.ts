// The offline engine's receipt route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';

// Documents several fields' tests read, each read once here.
/** reads a day-first receipt with a labelled payment */
function readReadsADayFirstReceiptWith() {
  const data = extractFixed('receipt', 'Kiosk Blume\nMarktplatz 2, 50667 Köln\n\nDatum: 07/03/2026 Zeit: 10:02\nBlumenstrauß   12,50 €\nSumme   12,50 €\nPayment: Visa **** 1111');
  return { data };
}

/** reads totals whose currency code sits across a wide gap, a `Tél.` line outside the address and a TWINT tender */
function readReadsTotalsWhoseCurrencyCodeSits() {
  const data = extractFixed('receipt', [
    'BOULANGERIE DU LAC',
    'Quai du Mont-Blanc 3',
    '1201 Genève',
    'Tél. 022 555 01 23',
    '',
    'Le 05/03/2026 à 08:47',
    '',
    'Pain au chocolat        CHF 2.40',
    'Café crème              CHF 4.20',
    '',
    'Total                   CHF 6.60',
    'dont TVA 2.6%           CHF 0.17',
    'Carte: TWINT            CHF 6.60',
  ].join('\n'));
  return { data };
}

/** skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size */
function readSkipsAWelcomeToLineAbove() {
  const data = extractFixed('receipt', 'Welcome to\nSAKURA RAMEN HOUSE\n88 Harrison Ave, Boston MA 02111\n\nMar 14, 2026   7:42 PM\n\n2  Gyoza (6 pc)              $18.00\n\nTotal                        $18.00\nVISA ************2291');
  return { data };
}

/** takes a quantity line with measures for the product named on the line above it */
function readTakesAQuantityLineWithMeasures() {
  const data = extractFixed('receipt', [
    'STATION WEST',
    'Ringweg 4, 3011 Rotterdam',
    '',
    'Date: 14.02.2026  Time: 18:42',
    '',
    'Diesel',
    '  Pump 3   40,00 l x 1,659 EUR/l        66,36 €',
    'Coffee                                   2,20 €',
    '',
    'TOTAL EUR                               68,56',
    'Paid Maestro contactless',
  ].join('\n'));
  return { data };
}

describe("date", () => {
  it('reads a day-first receipt with a labelled payment', () => {
    const { data } = readReadsADayFirstReceiptWith();
    expect(data.date).toBe('2026-03-07');
  });

  it('skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size', () => {
    const { data } = readSkipsAWelcomeToLineAbove();
    expect([data.date, data.time, data.paymentMethod]).toEqual(['2026-03-14', '19:42', 'VISA']);
  });
});

describe("total", () => {
  it('takes the total written after the tip, not the one before it', () => {
    const data = extractFixed('receipt', 'CEDAR SMOKEHOUSE\n05/02/26 8:10 PM\n1 Brisket Plate   24.00\nSubtotal          24.00\nTax                1.92\nTotal             25.92\n\nTip:               5.00\nTotal:            30.92\n');
    expect([data.total, data.tip]).toEqual([30.92, 5]);
  });

  it('reads a Brazilian total with R$ after its label, and stops the items there', () => {
    const data = extractFixed('receipt', 'PADARIA CENTRAL LTDA\nRUA XV DE NOVEMBRO, 88 - CURITIBA\n\nPAO FRANCES KG        12,40\nCAFE COADO             6,50\nVALOR TOTAL R$        18,90\nDinheiro              20,00\nTROCO R$               1,10\n');
    expect([data.total, data.currency]).toEqual([18.9, 'BRL']);
    expect(data.items.map((i) => i.description)).toEqual(['PAO FRANCES KG', 'CAFE COADO']);
  });
  it('reads a day-first receipt with a labelled payment', () => {
    const { data } = readReadsADayFirstReceiptWith();
    expect(data.total).toBe(12.5);
  });

  it('reads totals whose currency code sits across a wide gap, a `Tél.` line outside the address and a TWINT tender', () => {
    const { data } = readReadsTotalsWhoseCurrencyCodeSits();
    expect([data.total, data.tax, data.currency, data.paymentMethod]).toEqual([6.6, 0.17, 'CHF', 'TWINT']);
  });

  it('takes a quantity line with measures for the product named on the line above it', () => {
    const { data } = readTakesAQuantityLineWithMeasures();
    expect(data.total).toBe(68.56);
  });
});

describe("currency", () => {
  it('reads a day-first receipt with a labelled payment', () => {
    const { data } = readReadsADayFirstReceiptWith();
    expect(data.currency).toBe('EUR');
  });
});

describe("paymentMethod", () => {
  it('reads a day-first receipt with a labelled payment', () => {
    const { data } = readReadsADayFirstReceiptWith();
    expect(data.paymentMethod).toBe('Visa');
  });

  it('takes a quantity line with measures for the product named on the line above it', () => {
    const { data } = readTakesAQuantityLineWithMeasures();
    expect(data.paymentMethod).toBe('Maestro');
  });
});

describe("address", () => {
  it('reads totals whose currency code sits across a wide gap, a `Tél.` line outside the address and a TWINT tender', () => {
    const { data } = readReadsTotalsWhoseCurrencyCodeSits();
    expect(data.address).toBe('Quai du Mont-Blanc 3, 1201 Genève');
  });

  it('skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size', () => {
    const { data } = readSkipsAWelcomeToLineAbove();
    expect(data.address).toBe('88 Harrison Ave, Boston MA 02111');
  });
});

describe("items", () => {
  it('reads totals whose currency code sits across a wide gap, a `Tél.` line outside the address and a TWINT tender', () => {
    const { data } = readReadsTotalsWhoseCurrencyCodeSits();
    expect(data.items.map((i) => i.description)).toEqual(['Pain au chocolat', 'Café crème']);
  });

  it('skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size', () => {
    const { data } = readSkipsAWelcomeToLineAbove();
    expect(data.items).toEqual([{ description: 'Gyoza (6 pc)', quantity: 2, unitPrice: 9, amount: 18 }]);
  });

  it('takes a quantity line with measures for the product named on the line above it', () => {
    const { data } = readTakesAQuantityLineWithMeasures();
    expect(data.items).toEqual([
      { description: 'Diesel', quantity: 40, unitPrice: 1.659, amount: 66.36 },
      { description: 'Coffee', quantity: 1, unitPrice: 2.2, amount: 2.2 },
    ]);
  });

  it('reads `2 x Item` lines without the multiplication sign in the description', () => {
    const data = extractFixed('receipt', 'CAFE NORD\n1 Quay St\n\n2 x Flat white     £3.20    £6.40\n\nTOTAL   £6.40\nPaid: Cash');
    expect(data.items).toEqual([{ description: 'Flat white', quantity: 2, unitPrice: 3.2, amount: 6.4 }]);
  });
});

describe("merchant", () => {
  it('skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size', () => {
    const { data } = readSkipsAWelcomeToLineAbove();
    expect(data.merchant).toBe('SAKURA RAMEN HOUSE');
  });
});

describe("whole answer", () => {
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

  it('ends where the purchase begins: totals, priced lines and a tender alone are never address lines', () => {
    expect(extractFixed('receipt', 'CORNER SHOP\nTOTAL 3.00\nCASH').address).toBeNull();
    expect(extractFixed('receipt', 'CORNER SHOP\n12 High Street, Leeds\nTOTAL 3.00\nCASH').address).toBe('12 High Street, Leeds');
    expect(extractFixed('receipt', 'KIOSK 7\nStation Road 4\nCoffee 2.50\nTOTAL 2.50').address).toBe('Station Road 4');
  });

  it('reads subtotal, tip and total by their local labels, also with an OCR slip', () => {
    const italian = extractFixed('receipt', 'BAR CENTRALE\nPiazza Duomo 4, Milano\n\nCaffe            2   1,20    2,40\nCornetto         2   1,50    3,00\n\nSUBTOTALE                  5,40\nMancia                     0,60\nT0TALE COMPLESSIVO  EUR    6,00\nContanti');
    expect([italian.subtotal, italian.tip, italian.total, italian.currency]).toEqual([5.4, 0.6, 6, 'EUR']);
    const spanish = extractFixed('receipt', 'CAFETERIA SOL\nCalle Mayor 8, Madrid\n\nTostada          1   2,50    2,50\nZumo             1   3,00    3,00\n\nPropina                    0,50\nIMPORTE TOTAL        6,00 €');
    expect([spanish.tip, spanish.total, spanish.currency]).toEqual([0.5, 6, 'EUR']);
    const french = extractFixed('receipt', 'BOULANGERIE DU PORT\n3 quai Nord, Nantes\n\nBaguette         2   1,10    2,20\nCroissant        3   1,30    3,90\n\nSous-total                 6,10\nMontant total      6,10 EUR');
    expect([french.subtotal, french.total]).toEqual([6.1, 6.1]);
  });

  it('drops article numbers, reads `à` as the unit price and a tax-class letter after the amount, and prices a name from the line below', () => {
    const german = extractFixed('receipt', 'Metzgerei Huber\nMarktplatz 3, 94032 Passau\n\n2 x Leberkässemmel   à 2,60      5,20 A\n1 x Apfelschorle                2,40 B\n--------------------------------\nZwischensumme netto            6,65\nSUMME EUR                      7,60\n');
    expect(german.items).toEqual([
      { description: 'Leberkässemmel', quantity: 2, unitPrice: 2.6, amount: 5.2 },
      { description: 'Apfelschorle', quantity: 1, unitPrice: 2.4, amount: 2.4 },
    ]);
    expect([german.subtotal, german.total]).toEqual([6.65, 7.6]);
    const store = extractFixed('receipt', 'OAKRIDGE SUPPLY\n12 Mill Rd, Dayton OH\n\n204511 PVC ELBOW 3/4IN\n      4 @ $1.19                 $4.76\n339020 PAINTERS TAPE 2IN      $7.49\n\n        TOTAL                 $12.25\n');
    expect(store.items).toEqual([
      { description: 'PVC ELBOW 3/4IN', quantity: 4, unitPrice: 1.19, amount: 4.76 },
      { description: 'PAINTERS TAPE 2IN', quantity: 1, unitPrice: 7.49, amount: 7.49 },
    ]);
  });

  it('reads `小計 Subtotal` and `合計 TOTAL` by their Latin words and never a block-number address as a date', () => {
    const data = extractFixed('receipt', 'SAKURA TEA HOUSE\n2-4-11 Asakusa, Taito-ku, Tokyo\n\n2026/06/14  11:20 AM\n\nMatcha latte                 ¥650\nDango set                    ¥480\n\n小計 Subtotal               ¥1,130\n合計 TOTAL                  ¥1,130\n');
    expect([data.date, data.subtotal, data.total]).toEqual(['2026-06-14', 1130, 1130]);
  });

  it.each(['TOTAL 7.40 VISA', 'Total 7.40\nCard', 'Thanks for visiting!\nTOTAL 7.40'])('no letterhead, no merchant: %j', (text) =>
    expect(extractFixed('receipt', text).merchant).toBeNull());

  it('a letterhead above the total is the merchant', () => expect(extractFixed('receipt', 'PEBBLE CAFE\nTOTAL 7.40\nCARD').merchant).toBe('PEBBLE CAFE'));
});
