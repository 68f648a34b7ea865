// Document shapes of held-out documents: side-by-side blocks, summary lines, quantity lines under their product,
// party names with addresses, governing law by adjective, description-matched custom labels, attendee titles.
import { extractCustom, extractFixed } from '../../src/extraction/engines/local/index.js';
import { unfoldColumns } from '../../src/extraction/engines/local/segment/document.js';
import { groundRenewal } from '../../src/extraction/renewal/grounding.js';

describe('side-by-side blocks', () => {
  it('reads a letterhead beside the invoice details, and Bill To beside Ship To, column by column', () => {
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
    expect(data.invoiceNumber).toBe('HV-5521');
    expect(data.issueDate).toBe('2026-03-02');
    expect(data.dueDate).toBe('2026-04-01');
    expect(data.vendor).toEqual({ name: 'HOLMGREN VERKTYG AB', address: 'Kungsgatan 12, 411 19 Göteborg, Sweden', taxId: 'SE556677889901' });
    expect(data.customer).toEqual({ name: 'Fjord Bygg AS', address: 'Strandgata 3, 5013 Bergen, Norway', taxId: null });
    expect(data.total).toBe(6250);
  });

  it('leaves label/value lists and tables as they are', () => {
    const kv = ['Invoice Number      TMS-1', 'Invoice Date        April 7, 2026'];
    expect(unfoldColumns(kv)).toEqual(kv);
    const table = ['Widget        2     $4.00', 'Gadget        1     $9.50'];
    expect(unfoldColumns(table)).toEqual(table);
  });
});

describe('invoice distractors and typos', () => {
  it('reads OCR-typo labels and skips page numbers, previous balances and quote dates', () => {
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
    expect(data.vendor.name).toBe('Lakeside Paper Co.');
    expect(data.invoiceNumber).toBe('LP-300');
    expect(data.issueDate).toBe('2026-03-05');
    expect(data.dueDate).toBe('2026-04-04');
    expect(data.lineItems).toEqual([{ description: 'Copy paper, 10 reams', quantity: 3, unitPrice: 42, amount: 126 }]);
    expect([data.subtotal, data.tax, data.total]).toEqual([126, 8.82, 134.82]);
  });
});

describe('receipts', () => {
  it('takes a quantity line with measures for the product named on the line above it', () => {
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
    expect(data.items).toEqual([
      { description: 'Diesel', quantity: 40, unitPrice: 1.659, amount: 66.36 },
      { description: 'Coffee', quantity: 1, unitPrice: 2.2, amount: 2.2 },
    ]);
    expect(data.total).toBe(68.56);
    expect(data.paymentMethod).toBe('Maestro');
  });

  it('reads `2 x Item` lines without the multiplication sign in the description', () => {
    const data = extractFixed('receipt', 'CAFE NORD\n1 Quay St\n\n2 x Flat white     £3.20    £6.40\n\nTOTAL   £6.40\nPaid: Cash');
    expect(data.items).toEqual([{ description: 'Flat white', quantity: 2, unitPrice: 3.2, amount: 6.4 }]);
  });
});

describe('job posting summary lines', () => {
  it('reads a pipe-separated summary line by the shape of each part', () => {
    const data = extractFixed('job-posting', [
      'Pastry Chef | Maison Dupuis SARL | Lyon, France | Part-time',
      '',
      'Posted: the 2nd of February 2026',
      '',
      'What we expect:',
      '- 2 years in a pastry kitchen',
      '',
      'What we offer:',
      '- Staff meals',
    ].join('\n'));
    expect(data.title).toBe('Pastry Chef');
    expect(data.company).toBe('Maison Dupuis SARL');
    expect(data.location).toBe('Lyon, France');
    expect(data.employmentType).toBe('part_time');
    expect(data.postedDate).toBe('2026-02-02');
    expect(data.requirements).toEqual(['2 years in a pastry kitchen']);
    expect(data.benefits).toEqual(['Staff meals']);
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const data = extractFixed('job-posting', [
      'Brightline Labs is hiring!',
      '',
      'Data Engineer',
      'Brightline Labs, Austin, TX',
      'Full-time | Remote (US) | $120,000 - $140,000 per year',
    ].join('\n'));
    expect(data.title).toBe('Data Engineer');
    expect(data.company).toBe('Brightline Labs');
    expect(data.location).toBe('Austin, TX');
    expect(data.remote).toBe(true);
    expect(data.salaryRange).toEqual({ min: 120000, max: 140000, currency: 'USD', period: 'year' });
  });

  it('keeps a dashed title whole when its parts are not summary shapes', () => {
    const data = extractFixed('job-posting', 'Registered Nurse - Night Shift\nSt. Anne Hospital\n\nLocation: Cork, Ireland');
    expect(data.title).toBe('Registered Nurse - Night Shift');
  });

  it('reads an on-site aside as not remote', () => {
    expect(extractFixed('job-posting', 'Forklift Driver\nAcme Ltd\n\nWe need a driver for our night shift (on-site).').remote).toBe(false);
  });
});

describe('contracts', () => {
  it('ends party names before an address or a place of registration', () => {
    const data = extractFixed('contract', 'LEASE\n\nLandlord:  Red Rock Estates LLC, 9 Main St, Mesa, AZ 85201\nTenant:    Cactus Tools Co., 4 Elm Rd, Mesa, AZ 85203');
    expect(data.parties).toEqual([{ name: 'Red Rock Estates LLC', role: 'Landlord' }, { name: 'Cactus Tools Co.', role: 'Tenant' }]);
    const prose = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made between Alder Holdings Ltd, a company registered in England (the "Client"), and Weber Digital GmbH & Co. KG, of Munich, Germany (the "Contractor").');
    expect(prose.parties).toEqual([{ name: 'Alder Holdings Ltd', role: 'Client' }, { name: 'Weber Digital GmbH & Co. KG', role: 'Contractor' }]);
  });

  it('names the jurisdiction of `English law` by the courts the sentence names, else by the adjective', () => {
    expect(extractFixed('contract', 'This Agreement is governed by English law and the courts of England and Wales have jurisdiction.').governingLaw).toBe('England and Wales');
    expect(extractFixed('contract', 'This Agreement is governed by German law.').governingLaw).toBe('Germany');
    expect(extractFixed('contract', 'This Agreement is governed by the laws of the State of Arizona.').governingLaw).toBe('Arizona');
  });

  it('reads a total fee with words between `total` and `fee`, and `runs from` start dates', () => {
    const data = extractFixed('contract', 'AGREEMENT\n\nThe Client shall pay a total fixed fee of 84.500,00 EUR.\nThis Agreement runs from 1 April 2026 until 31 March 2027.');
    expect([data.totalValue, data.currency, data.effectiveDate, data.expirationDate]).toEqual([84500, 'EUR', '2026-04-01', '2027-03-31']);
  });
});

describe('meeting notes', () => {
  it('lists attendees without honorifics or job words, and strips a MINUTES dash header', () => {
    const data = extractFixed('meeting-notes', 'MINUTES — Facilities Review\n10 March 2026\n\nAttendees: Dr. Helen Park, Nurse Lead Sam Ortiz, Priya Natarajan');
    expect(data.title).toBe('Facilities Review');
    expect(data.attendees).toEqual(['Helen Park', 'Sam Ortiz', 'Priya Natarajan']);
  });
});

describe('renewal', () => {
  it('keeps chained company suffixes and the fullest product mention, with verbatim quotes', () => {
    const text = [
      'Subject: your Quillstone Archive subscription',
      '',
      'Your Quillstone Archive Professional subscription (35 users) is due to renew on the first of June 2026.',
      'Your current term started on June 1, 2025 and ends on May 31, 2026.',
      'Please give at least 30 days notice before the renewal date to cancel.',
      '',
      'Quillstone Cloud Holdings Ltd',
    ].join('\n');
    const data = extractFixed('renewal', text);
    expect(data.documentKindGuess).toBe('renewal_notice');
    expect(data.vendorName.value).toBe('Quillstone Cloud Holdings Ltd');
    expect(data.product.value).toBe('Quillstone Archive Professional');
    expect(data.renewalDate.value).toBe('2026-06-01');
    expect(data.contractStartDate.value).toBe('2025-06-01');
    const flat = text.replace(/\s+/g, ' ');
    for (const v of Object.values(data)) if (v && typeof v === 'object' && 'sourceQuote' in v && v.sourceQuote) expect(flat).toContain((v.sourceQuote as string).replace(/\s+/g, ' '));
    expect(groundRenewal(data, text).overallStatus).toBe('confirmed');
  });
});

describe('custom schemas', () => {
  it('matches labels by the description words when the property name shares none', () => {
    const out = extractCustom({
      type: 'object',
      properties: {
        petName: { type: 'string' },
        clinician: { type: 'string', description: 'Veterinarian seeing the pet' },
        checkIn: { type: 'string', description: 'Arrival date, YYYY-MM-DD' },
        reasonForVisit: { type: 'string' },
        thingsToBring: { type: 'array', items: { type: 'string' } },
      },
    }, 'Pet: Biscuit (Labrador)\nVet: Dr. Anna Weiss\nArrival: March 3rd, 2026\nReason: check-up\n\nPlease bring:\n- Booklet\n- Lead');
    expect(out).toEqual({ petName: 'Biscuit', clinician: 'Dr. Anna Weiss', checkIn: '2026-03-03', reasonForVisit: 'check-up', thingsToBring: ['Booklet', 'Lead'] });
  });

  it('does not fill a property from a generic description word alone', () => {
    const out = extractCustom({ type: 'object', properties: { checkOut: { type: 'string', description: 'Departure date' } } }, 'Date: 2026-03-01\nArrival: 2026-03-02');
    expect(out.checkOut).toBeNull();
  });
});
