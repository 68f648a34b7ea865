// Shapes the third held-out set showed: label columns with colons, pipe-separated registration lines,
// numbered lists right under a heading, `comes into force`, order schedules, notice by `notifies`, parenthesised asides.
import { extractCustom, extractFixed } from '../../src/extraction/engines/local/index.js';
import { unfoldColumns } from '../../src/extraction/engines/local/segment/document.js';
import { findAmounts } from '../../src/extraction/engines/local/normalise/money.js';
import { groundRenewal } from '../../src/extraction/renewal/grounding.js';

describe('label columns and registration lines', () => {
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
});

describe('numbered lists under a heading', () => {
  it('keeps every numbered line of the list as an item, a colon inside one included', () => {
    const data = extractFixed('meeting-notes', 'Committee notes\nDate: 4 March 2026\n\nItems discussed\n1. Fair planning\n2. Treasurer\'s report: balance £3,412.50\n3. Playground quote\n');
    expect(data.topicsDiscussed).toEqual(['Fair planning', 'Treasurer\'s report: balance £3,412.50', 'Playground quote']);
  });
});

describe('contract term phrases', () => {
  it('reads `comes into force on` and `expiring on`', () => {
    const data = extractFixed('contract', 'DISTRIBUTION AGREEMENT\n\nThis Agreement comes into force on 1 February 2026 and remains in force for three years, expiring on 31 January 2029.');
    expect([data.effectiveDate, data.expirationDate]).toEqual(['2026-02-01', '2029-01-31']);
  });
});

describe('renewal order schedules', () => {
  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const text = [
      'ORDER SCHEDULE 4',
      '',
      'Provider: Tallow Systems Pty Ltd',
      'Subscription Period: 1 July 2026 to 30 June 2027',
      'Payment: within 30 days of the invoice date',
      '',
      'At the end of the Subscription Period this Order Schedule will renew for a further period of 12 months unless the Customer notifies the Provider in writing not less than 90 days before the end of the Subscription Period.',
    ].join('\n');
    const data = extractFixed('renewal', text);
    expect(data.documentKindGuess).toBe('order_form');
    expect(data.autoRenewal.value).toBe(true);
    expect(data.noticePeriodDays.value).toBe(90);
    expect(data.paymentTermsDays.value).toBe(30);
    expect(data.contractEndDate.value).toBe('2027-06-30');
    expect(groundRenewal(data, text).overallStatus).toBe('confirmed');
  });
});

describe('custom: headings in plain words and asides', () => {
  it('reads `You will need:` as the ingredients and skips the figure in parentheses', () => {
    const out = extractCustom({
      type: 'object',
      properties: {
        ingredients: { type: 'array', items: { type: 'string' } },
        ovenTemperatureC: { type: 'number', description: 'Oven temperature in Celsius' },
      },
    }, 'PLUM CAKE\n\nBake: 40 min at 175 °C (155 °C fan)\n\nYou will need:\n- 500 g plums\n- 200 g flour\n');
    expect(out).toEqual({ ingredients: ['500 g plums', '200 g flour'], ovenTemperatureC: 175 });
  });
});

describe('receipts and invoices in other layouts', () => {
  it('reads totals whose currency code sits across a wide gap, a `Tél.` line outside the address and a TWINT tender', () => {
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
    expect(data.address).toBe('Quai du Mont-Blanc 3, 1201 Genève');
    expect([data.total, data.tax, data.currency, data.paymentMethod]).toEqual([6.6, 0.17, 'CHF', 'TWINT']);
    expect(data.items.map((i) => i.description)).toEqual(['Pain au chocolat', 'Café crème']);
  });

  it('keeps a parenthesised note in the description and drops a quantity and price that do not multiply out', () => {
    const data = extractFixed('invoice', 'Greenleaf Catering Ltd\n1 Way, Reading\n\nInvoice number: GC-1\n\nDescription                                   Amount\nWaiting staff (4 x 6 hours @ £18.50)           £444.00\n\nTotal                                          £444.00');
    expect(data.lineItems).toEqual([{ description: 'Waiting staff (4 x 6 hours @ £18.50)', quantity: 1, unitPrice: 444, amount: 444 }]);
  });
});

describe('renewal products in labelled summaries', () => {
  it('reads `Renewal of: Product, 40 seats`', () => {
    const data = extractFixed('renewal', 'RENEWAL QUOTE\n\nRenewal of: Sable Clinic Insights Premium, 40 seats\nRenewal fee: 10.080,00 EUR per year');
    expect(data.product.value).toBe('Sable Clinic Insights Premium');
    expect(data.seatCount.value).toBe(40);
    expect([data.billingAmount.value, data.currency.value, data.billingFrequency.value]).toEqual([10080, 'EUR', 'annual']);
  });
});

describe('contract parties in their own paragraphs and duties in numbered clauses', () => {
  it('reads `by and between:` with each party in its own paragraph, and `shall` sentences of numbered clauses', () => {
    const data = extractFixed('contract', [
      'CONSULTING AGREEMENT',
      '',
      'THIS AGREEMENT is entered into as of March 3rd, 2026 (the "Effective Date") by and between:',
      '',
      'Pinnacle Growth Advisors, LLC, a Colorado limited liability company with offices at 1600 Wynkoop St, Denver, CO 80202 ("Consultant"),',
      '',
      'and',
      '',
      'Mesa Verde Foods, Inc., a New Mexico corporation ("Client").',
      '',
      '1. SERVICES. Consultant shall provide the services described in Exhibit A.',
      '',
      '2. GOVERNING LAW. This Agreement shall be governed by the laws of the State of Colorado.',
    ].join('\n'));
    expect(data.parties).toEqual([{ name: 'Pinnacle Growth Advisors, LLC', role: 'Consultant' }, { name: 'Mesa Verde Foods, Inc.', role: 'Client' }]);
    expect(data.keyObligations).toEqual(['Consultant shall provide the services described in Exhibit A.']);
    expect(data.governingLaw).toBe('Colorado');
  });
});

describe('question headings', () => {
  it('reads a list under `Why <Company>?` as the benefits', () => {
    const data = extractFixed('job-posting', 'Junior Accountant\nHarrow & Finch\n\nAbout you\n• AAT qualified\n\nWhy Harrow & Finch?\n• Paid study leave\n• 25 days annual leave');
    expect(data.benefits).toEqual(['Paid study leave', '25 days annual leave']);
    expect(data.requirements).toEqual(['AAT qualified']);
  });
});

describe('custom: labels shared between sibling properties', () => {
  const schema = {
    type: 'object',
    properties: {
      plate: { type: 'string', description: 'Vehicle registration number' },
      vehicle: { type: 'string', description: 'Make and model' },
      street: { type: 'string', description: 'Where it happened' },
      issuedTime: { type: 'string', description: 'HH:MM' },
      discountedFine: { type: 'number', description: 'Reduced amount for early payment' },
    },
  };
  const text = 'PENALTY NOTICE\n\nVehicle registration: KX19 LMN\nMake/model: Ford Fiesta\nLocation: Marine Parade\nObserved: 14:32 on 9 February 2026\n\nAmount due: £70.00 (reduced to £35.00 if paid within 14 days)';

  it('gives a label to the property whose words explain all of it, and takes no time of day by elimination', () => {
    const out = extractCustom(schema, text);
    // `Observed: 14:32` is the only time, but nothing says it is the time the notice was issued (issue 20: no guesses).
    expect([out.plate, out.vehicle, out.street, out.issuedTime]).toEqual(['KX19 LMN', 'Ford Fiesta', 'Marine Parade', null]);
  });

  it('does not take a figure whose neighbours only echo the description', () => {
    expect(extractCustom(schema, text).discountedFine).toBeNull();
  });
});

describe('invoice labels without colons', () => {
  it('reads `INVOICE NO.  BSE-0937` and `VAT No. GB 298 4471 02` in the letterhead', () => {
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
    expect(data.invoiceNumber).toBe('BSE-0937');
    expect(data.vendor.taxId).toBe('GB 298 4471 02');
    expect(data.issueDate).toBe('2026-03-14');
  });
});

describe('receipt greetings and pack sizes', () => {
  it('skips a `Welcome to` line above the merchant and keeps a lead count before a parenthesised pack size', () => {
    const data = extractFixed('receipt', 'Welcome to\nSAKURA RAMEN HOUSE\n88 Harrison Ave, Boston MA 02111\n\nMar 14, 2026   7:42 PM\n\n2  Gyoza (6 pc)              $18.00\n\nTotal                        $18.00\nVISA ************2291');
    expect(data.merchant).toBe('SAKURA RAMEN HOUSE');
    expect(data.address).toBe('88 Harrison Ave, Boston MA 02111');
    expect(data.items).toEqual([{ description: 'Gyoza (6 pc)', quantity: 2, unitPrice: 9, amount: 18 }]);
    expect([data.date, data.time, data.paymentMethod]).toEqual(['2026-03-14', '19:42', 'VISA']);
  });
});

describe('attendee lists with roles', () => {
  it('reads one person per list item, without the role after a comma or dash, and never an acronym as a name', () => {
    const data = extractFixed('meeting-notes', 'Design Review\n2026-03-18\n\nAttendees:\n- Ana Lima, PM\n- Joe Park - Engineering Lead\n- Mei Chen (Design)\n- Sam O\'Neil, CTO\n');
    expect(data.attendees).toEqual(['Ana Lima', 'Joe Park', 'Mei Chen', 'Sam O\'Neil']);
    expect(extractFixed('meeting-notes', 'Sync\n2026-03-18\n\nAttendees: Ana Lima, Joe Park and Mei Chen').attendees).toEqual(['Ana Lima', 'Joe Park', 'Mei Chen']);
  });
});

describe('summary labels in Italian, Spanish and French', () => {
  it('reads subtotal, tip and total by their local labels, also with an OCR slip', () => {
    const italian = extractFixed('receipt', 'BAR CENTRALE\nPiazza Duomo 4, Milano\n\nCaffe            2   1,20    2,40\nCornetto         2   1,50    3,00\n\nSUBTOTALE                  5,40\nMancia                     0,60\nT0TALE COMPLESSIVO  EUR    6,00\nContanti');
    expect([italian.subtotal, italian.tip, italian.total, italian.currency]).toEqual([5.4, 0.6, 6, 'EUR']);
    const spanish = extractFixed('receipt', 'CAFETERIA SOL\nCalle Mayor 8, Madrid\n\nTostada          1   2,50    2,50\nZumo             1   3,00    3,00\n\nPropina                    0,50\nIMPORTE TOTAL        6,00 €');
    expect([spanish.tip, spanish.total, spanish.currency]).toEqual([0.5, 6, 'EUR']);
    const french = extractFixed('receipt', 'BOULANGERIE DU PORT\n3 quai Nord, Nantes\n\nBaguette         2   1,10    2,20\nCroissant        3   1,30    3,90\n\nSous-total                 6,10\nMontant total      6,10 EUR');
    expect([french.subtotal, french.total]).toEqual([6.1, 6.1]);
  });
});

describe('dates named in contract sentences', () => {
  it('takes a phrase\'s own date, not one from the clause after it', () => {
    const data = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made on 10 January 2027 between Harlow Data Ltd ("Provider") and Pinecrest Foods plc ("Customer") and is effective from 1 February 2027.\n\n1. Term. The term commences on the Effective Date and ends on 31 January 2029.\n');
    expect([data.effectiveDate, data.expirationDate]).toEqual(['2027-02-01', '2029-01-31']);
  });
});

describe('contract parties under role headings', () => {
  it('reads each party from the line under its role heading and never a signatory as a party', () => {
    const data = extractFixed('contract', [
      'MAINTENANCE AGREEMENT',
      '',
      'Licensor:                          Licensee:',
      'Brightwater Robotics SA            Keelson Marine Ltd',
      'Rue du Lac 12, 1003 Lausanne       7 Dock Road, Cork',
      '',
      'Customer:',
      '1. Pays each invoice within 30 days.',
      '',
      'Signed:',
      'For the Licensor: Elodie Favre     For the Licensee: Cian Walsh',
    ].join('\n'));
    expect(data.parties).toEqual([{ name: 'Brightwater Robotics SA', role: 'Licensor' }, { name: 'Keelson Marine Ltd', role: 'Licensee' }]);
  });
});

describe('renewal clauses under a heading and in other words', () => {
  it('quotes the sentence under an `Auto-renewal.` heading, not the heading', () => {
    const sentence = 'This Subscription renews automatically for successive twelve-month terms unless cancelled 60 days before the end of the current term.';
    const data = extractFixed('renewal', `SUBSCRIPTION TERMS\n\nVendor: Orbisoft Ltd\n\nAuto-renewal. ${sentence}\n`);
    expect([data.autoRenewal.value, data.autoRenewalLanguage.value]).toEqual([true, sentence]);
  });

  it('reads `extended automatically` as auto-renewal', () => {
    const data = extractFixed('renewal', 'LICENCE AGREEMENT\n\nThe licence term shall be extended automatically by further periods of one year unless either party objects in writing three months before it ends.');
    expect(data.autoRenewal.value).toBe(true);
  });

  it('names the vendor of a `between` sentence without its address', () => {
    const data = extractFixed('renewal', 'SUBSCRIPTION AGREEMENT\n\nThis Agreement is made between Norrsken Data Oy, Mannerheimintie 12, 00100 Helsinki ("Vendor"), and Baltic Freight AS ("Customer").\n\nThe subscription renews automatically for successive one-year terms.');
    expect(data.vendorName.value).toBe('Norrsken Data Oy');
  });
});

describe('custom schemas: date ranges', () => {
  it('gives a range\'s first date to the start property and its last to the end property', () => {
    const schema = { type: 'object', properties: { startDate: { type: 'string', format: 'date' }, endDate: { type: 'string', format: 'date' }, validUntil: { type: 'string', format: 'date' } } };
    const out = extractCustom(schema, 'Exhibition booking\n\nStand dates: 3 October 2026 – 6 October 2026\nQuote valid: 1 August 2026 until 31 August 2026\n');
    expect(out).toEqual({ startDate: '2026-10-03', endDate: '2026-10-06', validUntil: '2026-08-31' });
  });
});

describe('custom schemas: labels of initials', () => {
  it('reads `P.O. No.` as purchaseOrderNumber and `W/O nr.` as workOrderNumber', () => {
    const schema = { type: 'object', properties: { purchaseOrderNumber: { type: 'string' }, workOrderNumber: { type: 'string' }, technician: { type: 'string' } } };
    const out = extractCustom(schema, 'FIELD SERVICE SHEET\n\nP.O. No.: 77-4411\nW/O nr.: HX-2026-88\nTechnician: Ravi Sood\n');
    expect(out).toEqual({ purchaseOrderNumber: '77-4411', workOrderNumber: 'HX-2026-88', technician: 'Ravi Sood' });
  });
});

describe('custom schemas: British and American spellings', () => {
  it('reads a `Labour` row for laborHours and `Colour` for color', () => {
    const schema = { type: 'object', properties: { laborHours: { type: 'number' }, color: { type: 'string' } } };
    const out = extractCustom(schema, 'REPAIR NOTE\n\nColour: Racing green\n\nLabour            1,5 h x 64,00          96,00\nParts                                    12,40\n');
    expect(out).toEqual({ laborHours: 1.5, color: 'Racing green' });
  });
});

describe('custom schemas: letters', () => {
  it('takes a person\'s name from the salutation, never the title line, and no title from a line of dates', () => {
    const schema = { type: 'object', properties: { guestName: { type: 'string' }, eventTitle: { type: 'string' }, startDate: { type: 'string', format: 'date' } } };
    const out = extractCustom(schema, 'Harbourside Hotel – Booking confirmation\n\nDear Mr Tomasz Nowak,\n\nThank you for your booking.\n\nEvent dates: Friday 2 October 2026 to Sunday 4 October 2026\n');
    expect(out).toEqual({ guestName: 'Tomasz Nowak', eventTitle: null, startDate: '2026-10-02' });
  });
});

describe('meeting notes: action tables and print stamps', () => {
  it('reads actions from a pipe table and the meeting date over a printed-on stamp', () => {
    const data = extractFixed('meeting-notes', [
      'Facilities Committee',
      'Exported 02/06/2026 09:14',
      'Meeting held on 28 May 2026, Boardroom',
      '',
      'Attendees: Noor Haddad, Lars Brandt',
      '',
      'Follow-ups',
      '| Who          | Task                              | By       |',
      '|--------------|-----------------------------------|----------|',
      '| Noor Haddad  | book the fire-safety inspection   | 12 June  |',
      '| Lars Brandt  | collect quotes for new chairs     |          |',
    ].join('\n'));
    expect(data.date).toBe('2026-05-28');
    expect(data.actionItems).toEqual([
      { owner: 'Noor Haddad', task: 'book the fire-safety inspection', dueDate: '2026-06-12' },
      { owner: 'Lars Brandt', task: 'collect quotes for new chairs', dueDate: null },
    ]);
  });
});

describe('job postings under a letterhead', () => {
  it('reads the company from a first line ending in a legal form and the title from the line below', () => {
    const data = extractFixed('job-posting', 'Brenner Feinmechanik GmbH\nCNC Machinist (m/f/d) – Night Shift\n\nLocation: Ulm, Germany\n\nYour tasks\n- Set up and run 5-axis machines\n');
    expect([data.title, data.company, data.location]).toEqual(['CNC Machinist (m/f/d) – Night Shift', 'Brenner Feinmechanik GmbH', 'Ulm, Germany']);
  });
});

describe('renewal facts stated in sentences', () => {
  it('reads the product given access to, a minimum total spend and days written with the figure in brackets', () => {
    const data = extractFixed('renewal', [
      'SOFTWARE SUBSCRIPTION AGREEMENT',
      '',
      'This Agreement is made between Tessellate Analytics Ltd ("Provider") and Harrow Mills plc ("Customer").',
      '',
      '1. Service. Provider grants Customer access to the Tessellate Insight Platform for up to 40 users.',
      '2. Fees. Invoices are payable forty-five (45) days after the invoice date. Customer commits to a minimum total spend of £90,000.00 over the term.',
      '3. Term. The term runs from 1 May 2026 to 30 April 2028 and renews automatically for further one-year periods unless either party gives 60 days notice.',
    ].join('\n'));
    expect([data.product.value, data.paymentTermsDays.value, data.committedSpend.value]).toEqual(['Tessellate Insight Platform', 45, 90000]);
  });
});

describe('receipt lines with article codes, tax classes and quantities below', () => {
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
});

describe('invoices written as letters', () => {
  it('reads the issue and due dates from sentences, the customer after `Issued ... to:`, a named dollar and a GST/HST number', () => {
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
    expect([data.issueDate, data.dueDate, data.currency, data.vendor.taxId]).toEqual(['2026-08-12', '2026-09-11', 'CAD', '70211 4433 RT0001']);
    expect(data.customer).toEqual({ name: 'Lakeshore Rowing Club', address: '400 Lake Shore Blvd, Toronto, ON M5V 1A5', taxId: null });
  });

  it('skips a bilingual title line above the letterhead', () => {
    const data = extractFixed('invoice', '                FAKTURA / INVOICE\n\nPolarbyte AS\nStorgata 5, 0155 Oslo\n\nInvoice No.: PB-77\nTotal: NOK 1 250,00\n');
    expect(data.vendor.name).toBe('Polarbyte AS');
  });
});

describe('custom schemas: bilingual confirmations', () => {
  it('reads columns apart by wide gaps, bilingual labels, the letterhead as the named thing, a name without its title and a date stated in a sentence', () => {
    const schema = { type: 'object', properties: {
      campsiteName: { type: 'string' }, guestName: { type: 'string' }, adults: { type: 'integer' },
      arrival: { type: 'string', description: 'Arrival date, YYYY-MM-DD' }, freeCancellationUntil: { type: 'string', format: 'date' },
    } };
    const text = [
      'CAMPING LES PINS ***',
      'Route de la Plage, 40200 Mimizan',
      '',
      'Client / Guest:   Dr Jonas Weber              Adultes / Adults: 3',
      'Arrivée / Arrival:      samedi 18.07.2026 (à partir de 14:00)',
      '',
      'Annulation gratuite jusqu\'au 04.07.2026. Free cancellation until 4 July 2026.',
    ].join('\n');
    expect(extractCustom(schema, text)).toEqual({ campsiteName: 'CAMPING LES PINS', guestName: 'Jonas Weber', adults: 3, arrival: '2026-07-18', freeCancellationUntil: '2026-07-04' });
  });
});

describe('custom schemas: identifiers, periods and figures of dates', () => {
  it('gives `Member No` to the number and `Member` to the name, a period to its start and end, and no number from a date', () => {
    const schema = { type: 'object', properties: {
      memberName: { type: 'string' }, memberNumber: { type: 'string' },
      coverPeriod: { type: 'object', properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } } },
      premium: { type: 'number', description: 'Premium for this period' },
    } };
    const text = 'GYM MEMBERSHIP STATEMENT\n\nMember:        Alva Berg            Member No:    000781\nCover Period:  01/03/2026 to 31/03/2026\nPremium due:   £42.00\n';
    expect(extractCustom(schema, text)).toEqual({ memberName: 'Alva Berg', memberNumber: '000781', coverPeriod: { start: '2026-03-01', end: '2026-03-31' }, premium: 42 });
  });
});

describe('custom schemas: lists as tables', () => {
  it('reads rows under a header whose first cell names the list: description from the first cell, amount from the last figure', () => {
    const schema = { type: 'object', properties: {
      charges: { type: 'array', description: 'Each charge line', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
    } };
    const text = 'UTILITY BILL\n\nCHARGES                        Units     Rate       Amount\nStanding charge 2x               30      0.45        13.50\nEnergy used                     412      0.27       111.24\n\nTotal Charges                                      124.74\n';
    expect(extractCustom(schema, text)).toEqual({ charges: [{ description: 'Standing charge 2x', amount: 13.5 }, { description: 'Energy used', amount: 111.24 }] });
  });
});

describe('meeting minutes of a co-operative and call notes', () => {
  it('skips an organisation letterhead for the title, ends the agenda where numbering restarts, and reads every RESOLVED line', () => {
    const data = extractFixed('meeting-notes', [
      'RIVERSIDE ALLOTMENTS SOCIETY LTD',
      'Annual Committee Meeting',
      'Held on 4 May 2026',
      '',
      'Agenda',
      '1. Plot fees',
      '2. Water supply',
      '',
      '1. The treasurer presented the accounts for the year.',
      'RESOLVED: that plot fees stay at £40.',
      '',
      '2. The water main needs repair before summer.',
      'RESOLVED: that the repair quote of £900 be accepted.',
      '',
      'Carried forward',
      '- Should the society buy a shared rotavator?',
    ].join('\n'));
    expect(data.title).toBe('Annual Committee Meeting');
    expect(data.topicsDiscussed).toEqual(['Plot fees', 'Water supply']);
    expect(data.decisions).toEqual(['that plot fees stay at £40.', 'that the repair quote of £900 be accepted.']);
    expect(data.openQuestions).toEqual(['Should the society buy a shared rotavator?']);
  });

  it('reads `Name → task, by 24.03.` actions in the meeting\'s year', () => {
    const data = extractFixed('meeting-notes', 'Sprint sync\n10.03.2026\n\nNext steps\n* Lena Vogt → update the release notes, by 24.03.\n* Omar Said -> fix the login bug, by Fri 13.03.\n');
    expect(data.actionItems).toEqual([
      { owner: 'Lena Vogt', task: 'update the release notes', dueDate: '2026-03-24' },
      { owner: 'Omar Said', task: 'fix the login bug', dueDate: '2026-03-13' },
    ]);
  });
});

describe('parties under side-by-side headings without colons', () => {
  it('reads contract parties, the title column and `for a total of`', () => {
    const data = extractFixed('contract', [
      'WINDOW CLEANING AGREEMENT                       Ref. WCA-26-09',
      '',
      'CUSTOMER                                   SUPPLIER',
      'Harbour View Offices Ltd                   Crystal Pane Services LLP',
      '12 Quay Street, Bristol BS1 4DJ            5 Mill Lane, Bath BA1 2QT',
      '',
      'The Customer shall pay the Supplier £400.00 per month, for a total of £4,800.00 over the term.',
    ].join('\n'));
    expect(data.title).toBe('WINDOW CLEANING AGREEMENT');
    expect(data.parties).toEqual([{ name: 'Harbour View Offices Ltd', role: 'Customer' }, { name: 'Crystal Pane Services LLP', role: 'Supplier' }]);
    expect([data.totalValue, data.currency]).toEqual([4800, 'GBP']);
  });

  it('names a prose party without its address and a renewal vendor under a `Vendor` heading', () => {
    const contract = extractFixed('contract', 'CONSULTING AGREEMENT\n\nThis Agreement is made between Alder Foods NV, a company incorporated in Belgium (the "Client"), and Kite Data BV, Marktplein 4, 3511 Utrecht (the "Consultant").\n');
    expect(contract.parties.map((p) => p.name)).toEqual(['Alder Foods NV', 'Kite Data BV']);
    const renewal = extractFixed('renewal', 'ORDER FORM\n\nVendor                                  Customer\nNimbus Archive AG                       Stadtwerke Lind GmbH\nBahnhofstrasse 1, 8001 Zürich           Ringstraße 2, 1010 Wien\n\nSubscription term: 01.01.2027 to 31.12.2027\n');
    expect(renewal.vendorName.value).toBe('Nimbus Archive AG');
  });
});

describe('renewal terms on an invoice', () => {
  it('reads the kind from a right-hand INVOICE, the vendor from a letterhead with a legal form, a billed Plan and the stated next renewal date', () => {
    const data = extractFixed('renewal', [
      'Quillmark Forms, LLC                                       INVOICE',
      '400 Pine St, Seattle, WA 98101                             Invoice #: QF-2210',
      '',
      'Bill to:',
      'Cedar Dental Group',
      '',
      'Item                                         Qty   Unit price     Amount',
      'Quillmark Clinic Edition - annual             6      $300.00   $1,800.00',
      '',
      'Your subscription renews automatically for another year unless you cancel. Your next renewal date is March 3, 2027.',
    ].join('\n'));
    expect([data.documentKindGuess, data.vendorName.value, data.product.value, data.renewalDate.value]).toEqual(['invoice', 'Quillmark Forms, LLC', 'Quillmark Clinic Edition', '2027-03-03']);
  });
});

describe('job postings under a careers banner or with a company ending in Inc.', () => {
  it('reads the company from `Name · Careers` and from a line ending in `Inc.`', () => {
    const banner = extractFixed('job-posting', 'Lumen Rail AB · Careers\n\nBackend Developer\nMalmö, Sweden | On-site | Full-time\n\nWhat you will do\n- Build APIs\n');
    expect([banner.title, banner.company, banner.location]).toEqual(['Backend Developer', 'Lumen Rail AB', 'Malmö, Sweden']);
    const inc = extractFixed('job-posting', 'QA Analyst, Mobile Apps\nPinecone Labs Inc.\n\nLocation: Austin, TX\n');
    expect([inc.title, inc.company]).toEqual(['QA Analyst, Mobile Apps', 'Pinecone Labs Inc.']);
  });
});

describe('two-column invoice headers, bilingual table heads, tax totals and European ranges', () => {
  it('reads the name beside a title, a number beside an address, bilingual column heads and `Total taxes`', () => {
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
    expect([data.vendor.name, data.invoiceNumber, data.tax]).toEqual(['OAKHILL METALWORKS LTD', 'OMW-2231', 20]);
    expect(data.lineItems).toEqual([{ description: 'Steel brackets', quantity: 40, unitPrice: 2.5, amount: 100 }]);
  });

  it('reads both ends of `EUR 1.650 - 1.900` the European way', () => {
    expect(findAmounts('EUR 1.650 - 1.900 per month').map((a) => [a.value, a.currency])).toEqual([[1650, 'EUR'], [1900, 'EUR']]);
  });
});

describe('meeting notes sent by e-mail and a vendor pair with its address', () => {
  it('skips the sent date and trims the date from a subject line title', () => {
    const data = extractFixed('meeting-notes', 'From: Ana Silva <ana@example.com>\nSent: Friday, 15 May 2026 09:02\nSubject: Notes - Product Council, 14 May\n\nHi all, notes from yesterday\'s Product Council (Thursday 14 May 2026).\n\nAttendees: Ana Silva, Rui Costa\n');
    expect([data.title, data.date]).toEqual(['Product Council', '2026-05-14']);
  });

  it('names a `Vendor:` value without its address', () => {
    const data = extractFixed('renewal', 'ORDER FORM\n\nVendor: Sternwarte Cloud GmbH, Hafenweg 3, 20457 Hamburg\nSubscription term: 01.01.2027 to 31.12.2027\n');
    expect(data.vendorName.value).toBe('Sternwarte Cloud GmbH');
  });
});

describe('custom schemas: money over counts, exclusions, an e-mail sender; minutes without an agenda', () => {
  it('prefers a money figure for a rate, ignores what a description excludes, and names the sender without the address', () => {
    const schema = { type: 'object', properties: {
      lodgeName: { type: 'string' },
      ratePerNight: { type: 'number' },
      totalPrice: { type: 'number', description: 'Total price of the stay, excluding tourist levy' },
    } };
    const text = 'From: Lodge Birkenhain <stay@birkenhain.example>\nSubject: Your booking\n\nNights:           3\nRate:             € 120,00 per night\nTotal stay:       € 360,00\nTourist levy:     € 9,00\n';
    expect(extractCustom(schema, text)).toEqual({ lodgeName: 'Lodge Birkenhain', ratePerNight: 120, totalPrice: 360 });
  });

  it('takes numbered item headings as the topics when there is no agenda', () => {
    const data = extractFixed('meeting-notes', 'Parish Hall Committee\nMinutes of 3 June 2026\n\n1. Roof repairs\nThe quote was discussed.\n\n2. Summer fete\nVolunteers are needed.\n');
    expect(data.topicsDiscussed).toEqual(['Roof repairs', 'Summer fete']);
  });
});

describe('effect dates, renewal dates in sentences and a company under a bilingual subtitle', () => {
  it('reads `shall take effect on` and `will automatically renew ... on`', () => {
    const contract = extractFixed('contract', 'SERVICES AGREEMENT\n\n1.1 This Agreement shall take effect on 4 May 2026 and shall remain in force until 3 May 2027.\n');
    expect(contract.effectiveDate).toBe('2026-05-04');
    const renewal = extractFixed('renewal', 'Subject: Your Orbit Desk subscription renews June 2, 2027\n\nCurrent term: June 2, 2026 - June 1, 2027\nYour subscription will automatically renew for another one-year term on June 2, 2027 unless you tell us otherwise.\n');
    expect(renewal.renewalDate.value).toBe('2027-06-02');
  });

  it('takes a legal-form line near the top as the company over a subtitle part', () => {
    const data = extractFixed('job-posting', 'Data Analyst\nWerkstudent Data - alle Geschlechter / all genders\n\nNordhafen Analytics GmbH\nLocation: Bremen, Germany\n');
    expect(data.company).toBe('Nordhafen Analytics GmbH');
  });
});

describe('labels in two scripts and block-number addresses', () => {
  it('reads `小計 Subtotal` and `合計 TOTAL` by their Latin words and never a block-number address as a date', () => {
    const data = extractFixed('receipt', 'SAKURA TEA HOUSE\n2-4-11 Asakusa, Taito-ku, Tokyo\n\n2026/06/14  11:20 AM\n\nMatcha latte                 ¥650\nDango set                    ¥480\n\n小計 Subtotal               ¥1,130\n合計 TOTAL                  ¥1,130\n');
    expect([data.date, data.subtotal, data.total]).toEqual(['2026-06-14', 1130, 1130]);
  });
});
