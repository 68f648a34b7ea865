// The rules every field follows, whatever the route: a value only with evidence, within its kind's bound, and the
// finder that answered it named.
import { extractCustom, extractFixed } from '../../../src/extraction/engines/local/index.js';
import type { Trace } from '../../../src/extraction/engines/local/fields/finder.js';
import { LEGAL_FORM_END } from '../../../src/extraction/engines/local/lexicon.js';

describe('a value is bounded by its kind', () => {
  it('a title line longer than a title is no title, and a name is never a paragraph', () => {
    const title = `Senior ${'Platform and Reliability '.repeat(8)}Engineer`;
    const data = extractFixed('job-posting', `${title}\nCompany: Orchard Analytics Ltd\nLocation: Leeds, UK`);
    expect(title.length).toBeGreaterThan(150);
    expect(data.title).toBeNull();
    expect(data.company).toBe('Orchard Analytics Ltd');
  });

  it('an invoice number longer than an identifier is null', () => {
    const data = extractFixed('invoice', `Invoice No: ${'A1'.repeat(30)}\nTotal: $5.00`);
    expect(data.invoiceNumber).toBeNull();
    expect(data.total).toBe(5);
  });

  it('a renewal quote is at most 300 characters and found in the document', () => {
    const text = `This subscription will renew automatically for successive one-year terms unless either party gives at least 30 days' written notice before the end of the then-current term, ${'and the parties agree that this clause survives any assignment or change of control of either party, '.repeat(4)}as set out above.`;
    const data = extractFixed('renewal', text);
    expect(data.noticePeriodDays.value).toBe(30);
    expect(data.noticePeriodDays.sourceQuote!.length).toBeLessThanOrEqual(300);
    expect(text.replace(/\s+/g, ' ')).toContain(data.noticePeriodDays.sourceQuote);
  });
});

describe('a value comes with evidence, never by elimination', () => {
  it('a job posting names no company from "join X" in prose', () => {
    const data = extractFixed('job-posting', 'Warehouse Associate\n\nCome and join Parcel Movers this spring. You will pick and pack orders.\n\nPay: $18.50 per hour');
    expect(data.company).toBeNull();
    expect(data.salaryRange).toEqual({ min: 18.5, max: 18.5, currency: 'USD', period: 'hour' });
  });

  it('a renewal names no vendor from the organisation mentioned most', () => {
    const data = extractFixed('renewal', 'Your plan renews on 1 June 2026.\nWe moved the data from Acme Ltd to Acme Ltd storage; Acme Ltd reviewed it with Beta Inc.');
    expect(data.vendorName).toEqual({ value: null, sourceQuote: null });
    expect(data.renewalDate.value).toBe('2026-06-01');
  });

  it('a custom date the document does not label is null, even when it is the only date', () => {
    const data = extractCustom({ type: 'object', properties: { deliveryDate: { type: 'string', format: 'date' }, orderNumber: { type: 'string' } } }, 'Order number: PO-7731\nOrdered on 3 March 2026');
    expect(data).toEqual({ deliveryDate: null, orderNumber: 'PO-7731' });
  });
});

describe('a list holds only items that say something', () => {
  it('a custom list item none of whose members was read is left out', () => {
    const schema = { type: 'object', properties: { parts: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, colour: { type: 'string' }, weight: { type: 'number' } } } } } };
    // Two text members, neither named as the row's words (a description, a name), and no figure: nothing is read.
    expect(extractCustom(schema, 'Parts\n- Public liability\n- Products liability\n').parts).toEqual([]);
  });

  it('a row\'s words go to the one text member and its money to the one money member, by leaders or wide gaps', () => {
    const schema = { type: 'object', properties: { coverages: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, limit: { type: 'number' } } } } } };
    expect(extractCustom(schema, 'Coverages\n  Public liability ......... £5,000,000 any one occurrence\n  Hired-in plant               £250,000\n').coverages)
      .toEqual([{ type: 'Public liability', limit: 5000000 }, { type: 'Hired-in plant', limit: 250000 }]);
    const lines = { type: 'object', properties: { lines: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } } } };
    expect(extractCustom(lines, 'Lines\n- Pipette tips 12.50\n- Gloves 8.00\n').lines).toEqual([{ description: 'Pipette tips', amount: 12.5 }, { description: 'Gloves', amount: 8 }]);
  });

  it('a table\'s columns go to the members their headers name; the total under it is no row', () => {
    const schema = { type: 'object', properties: { lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, description: { type: 'string' }, quantity: { type: 'integer' }, unitPrice: { type: 'number' } } } } } };
    const text = ['Line  SKU         Description              Qty   Unit Price    Extended', '1     TP-1000     Pipette tips, racked      20       $48.00     $960.00', '2     GL-M        Nitrile gloves            15       $11.75     $176.25', 'Total                                                           $1,136.25'].join('\n');
    expect(extractCustom(schema, text).lines).toEqual([
      { sku: 'TP-1000', description: 'Pipette tips, racked', quantity: 20, unitPrice: 48 },
      { sku: 'GL-M', description: 'Nitrile gloves', quantity: 15, unitPrice: 11.75 },
    ]);
  });

  it('rows end at a labelled fact of their own, and the heading naming the list best holds it', () => {
    const schema = { type: 'object', properties: { limits: { type: 'array', description: 'Each coverage limit listed', items: { type: 'object', properties: { coverage: { type: 'string' }, amount: { type: 'number' } } } } } };
    const text = ['COVERAGES', 'TYPE OF INSURANCE              POLICY NUMBER', 'GENERAL LIABILITY              LPM-GL-5520917', '', 'LIMITS', '  Each Occurrence          $1,000,000', '  General Aggregate        $2,000,000', 'Deductible per claim: $2,500'].join('\n');
    expect(extractCustom(schema, text).limits).toEqual([{ coverage: 'Each Occurrence', amount: 1000000 }, { coverage: 'General Aggregate', amount: 2000000 }]);
  });
});

describe('a bare label is contested among the properties of its sort', () => {
  const schema = { type: 'object', properties: { certificateDate: { type: 'string', format: 'date' }, policyEffectiveDate: { type: 'string', format: 'date' }, policyExpirationDate: { type: 'string', format: 'date' } } };

  it('a bare "Date" goes to the one date property it fits best, not to every date property', () => {
    expect(extractCustom(schema, 'CERTIFICATE OF INSURANCE\nDate: 06/22/2026\nInsurer: Lone Prairie Mutual')).toEqual({ certificateDate: '2026-06-22', policyEffectiveDate: null, policyExpirationDate: null });
  });

  it('a label with the property\'s own word is not contested ("PO Date" is the order date beside a poNumber)', () => {
    const po = { type: 'object', properties: { poNumber: { type: 'string' }, orderDate: { type: 'string', format: 'date' }, requestedDeliveryDate: { type: 'string', format: 'date' } } };
    expect(extractCustom(po, 'PO Number: 4471\nPO Date: 06/18/2026')).toEqual({ poNumber: '4471', orderDate: '2026-06-18', requestedDeliveryDate: null });
  });

  it('a date and a time read from one "When" value are not rivals', () => {
    const event = { type: 'object', properties: { date: { type: 'string', description: 'YYYY-MM-DD' }, startTime: { type: 'string', description: 'HH:MM, 24 hours' } } };
    expect(extractCustom(event, 'When: Thursday 14 May 2026, 18:30')).toEqual({ date: '2026-05-14', startTime: '18:30' });
  });
});

describe('a nested object read from the whole document', () => {
  const schema = { type: 'object', properties: { guestName: { type: 'string' }, hotel: { type: 'object', properties: { name: { type: 'string', description: 'Hotel name' }, registration: { type: 'string', description: 'Licence plate as printed' } } } } };

  it('takes a member only from a label holding its own or the object\'s word: "Guest name" is no hotel name', () => {
    expect(extractCustom(schema, 'Booking Confirmation\n\nGuest name: Ms. Sofia Lindqvist\nPlate: KX19 LMN')).toEqual({ guestName: 'Sofia Lindqvist', hotel: { name: null, registration: 'KX19 LMN' } });
    expect(extractCustom(schema, 'Booking Confirmation\n\nGuest name: Ms. Sofia Lindqvist\nHotel name: Kamogawa Terrace').hotel).toEqual({ name: 'Kamogawa Terrace', registration: null });
  });
});

describe('renewal vendor finders', () => {
  it('reads the organisation that signs a renewal letter', () => {
    const trace: Trace = {};
    const data = extractFixed('renewal', 'Hello Sam,\n\nYour Tally Pro plan renews on 1 June 2026 for another year.\n\nKind regards,\nRenewals Team\nTally Books Ltd', trace);
    expect(data.vendorName).toEqual({ value: 'Tally Books Ltd', sourceQuote: 'Tally Books Ltd' });
    expect(trace.vendorName).toBe('organisation signing the letter');
  });

  it('reads "entered into by A and B" like "between A and B"', () => {
    const data = extractFixed('renewal', 'This Agreement is entered into by Corvane Systems, Inc. ("Provider") and Lowfield Clinic ("Customer"). It renews automatically each year.');
    expect(data.vendorName.value).toBe('Corvane Systems, Inc.');
  });

  it('an e-mail header\'s display name is a sender, not the vendor; the signing company is', () => {
    const text = 'From: Orbitly Renewals <renewals@orbitly.example>\nTo: ops@harbor.example\nSubject: Your renewal\n\nHi Dana,\n\nYour Orbitly Teams plan renews on 1 June 2026.\n\nBest,\nThe Orbitly Renewals Team\nOrbitly, Inc. | 410 N. Wells St., Chicago, IL 60654';
    expect(extractFixed('renewal', text).vendorName.value).toBe('Orbitly, Inc.');
    expect(extractFixed('renewal', 'From: Orbitly Renewals <renewals@orbitly.example>\nSubject: Your renewal\n\nYour plan renews on 1 June 2026.').vendorName.value).toBeNull();
    expect(extractFixed('renewal', 'From: Orbitly Ltd <renewals@orbitly.example>\nSubject: Your renewal\n\nYour plan renews on 1 June 2026.').vendorName.value).toBe('Orbitly Ltd');
  });

  it('a company name standing alone as the letter\'s last line signs it; a labelled last line does not', () => {
    expect(extractFixed('renewal', 'Your Orbitly Teams plan renews on 1 June 2026.\n\nOrbitly Ltd').vendorName.value).toBe('Orbitly Ltd');
    expect(extractFixed('renewal', 'Your plan renews on 1 June 2026.\n\nAccount: Harbor Dental Ltd').vendorName.value).toBeNull();
  });

  it('a letter signed by a person names no vendor', () => {
    const data = extractFixed('renewal', 'Hello Sam,\n\nYour plan renews on 1 June 2026.\n\nKind regards,\nPriya Shah');
    expect(data.vendorName.value).toBeNull();
  });
});

describe('the trace names the finder that answered each field', () => {
  it('for an invoice, dotted paths for nested fields', () => {
    const trace: Trace = {};
    extractFixed('invoice', 'Acme Ltd\n1 High St, Leeds\n\nInvoice No: INV-7\nInvoice Date: 2026-03-02\nTerms: Net 30\n\nBill To:\nBeta Inc\n\nTotal: $500.00', trace);
    expect(trace).toMatchObject({ invoiceNumber: 'labelled pair', issueDate: 'labelled date', dueDate: 'issue date plus net terms', 'vendor.name': 'vendor label or letterhead', 'customer.name': 'customer label', total: 'total line' });
  });
});

describe('facts stated in a grammatical frame', () => {
  it('a recruiter\'s posting names the hiring company "on behalf of" it, with chained legal forms', () => {
    const data = extractFixed('job-posting', 'Data Engineer\nPosted by Ironbark Talent Partners\n\nIronbark Talent Partners is recruiting on behalf of Wattle Ledger Pty Ltd, a payments company, for a data engineer.');
    expect(data.company).toBe('Wattle Ledger Pty Ltd');
    // Without a legal form the frame is no evidence of a company's name.
    expect(extractFixed('job-posting', 'Data Engineer\n\nWe are recruiting on behalf of a fast-growing payments company.').company).toBeNull();
  });

  it('a notice period named after its noun, in months, gives its text and no day count', () => {
    const data = extractFixed('renewal', 'The contract is extended automatically by a further twelve months unless it is terminated in writing with a notice period of three months to the end of the respective term.');
    expect(data.noticePeriodText.value).toBe('a notice period of three months to the end of the respective term');
    expect(data.noticePeriodDays.value).toBeNull();
  });
});

describe('renewal terms on an invoice', () => {
  const invoice = [
    'Tally Books Ltd', '4 Mill Lane, Leeds', '', 'INVOICE TB-2026-118', '', 'Invoice date: 1 May 2026', '',
    'Description                     Qty   Unit price     Amount', 'Tally Pro - monthly seat        9     GBP 15.00      GBP 135.00',
    '                                      Subtotal       GBP 135.00', '                                      VAT 20%        GBP 27.00', '                                      Total          GBP 162.00',
  ].join('\n');

  it('a line that is only "INVOICE" and its number, under a letterhead, makes it an invoice', () => {
    expect(extractFixed('renewal', invoice).documentKindGuess).toBe('invoice');
  });

  it('what an invoice bills is its subtotal before tax, in the subtotal\'s currency', () => {
    const data = extractFixed('renewal', invoice);
    expect(data.billingAmount).toEqual({ value: 135, sourceQuote: 'Subtotal GBP 135.00' });
    expect(data.currency.value).toBe('GBP');
  });
});

describe('price escalation', () => {
  it('a fee rising by a rate a few words on is the escalation clause; a rise without a rate is not', () => {
    expect(extractFixed('renewal', 'Subscription fees for each renewal term will increase by five percent (5%) over the prior term.').priceEscalationText.value).toBe('Subscription fees for each renewal term will increase by five percent (5%) over the prior term.');
    expect(extractFixed('renewal', 'Fees for the second site will be higher once it opens next year.').priceEscalationText.value).toBeNull();
  });
});

describe('dates whose order the document does not show', () => {
  it('an ambiguous numeric date is read by the document\'s evidence (its currency, its other dates), and not at all without any', () => {
    expect(extractFixed('receipt', 'CORNER SHOP\nDate: 04/05/2026\nTOTAL 3.00').date).toBeNull();
    expect(extractFixed('receipt', 'CORNER SHOP\nDate: 04/05/2026\nTOTAL £3.00').date).toBe('2026-05-04');
    expect(extractFixed('receipt', 'CORNER SHOP\nDate: 04/05/2026\nTOTAL $3.00').date).toBe('2026-04-05');
    expect(extractFixed('receipt', 'KEDAI RUNCIT\nDate: 04/05/2026\nTOTAL RM 3.00').date).toBe('2026-05-04');
  });
});

describe('totals by their own words', () => {
  it('a count of items is no total; "(EXCLUDING GST)" is the subtotal and "(INCLUSIVE OF GST)" the total; a rounded total wins', () => {
    const data = extractFixed('receipt', ['KEDAI MAJU', 'Milk        2   RM 10.00', 'TOTAL QTY:    7         51.42', 'TOTAL SALES (EXCLUDING GST) :     51.42', 'TOTAL GST :      3.08', 'TOTAL SALES (INCLUSIVE OF GST)   54.50'].join('\n'));
    expect([data.subtotal, data.tax, data.total]).toEqual([51.42, 3.08, 54.5]);
    const rounded = extractFixed('receipt', ['KEDAI MAJU', 'TOTAL                      RM 33.92', 'ROUNDING ADJUSTMENT           -RM 0.02', 'TOTAL ROUNDED                  RM 33.90'].join('\n'));
    expect(rounded.total).toBe(33.9);
  });
});

describe('a receipt\'s letterhead', () => {
  it('starts at a line of words, drops a registration number in brackets, and goes on after a trailing "&"', () => {
    expect(extractFixed('receipt', '3 180048\n99 SPEED MART S/B (519537-X)\nLOT 2, JALAN 3\nTOTAL RM 9.00').merchant).toBe('99 SPEED MART S/B');
    expect(extractFixed('receipt', 'HOME MASTER HARDWARE &\nELECTRICAL\n2, JALAN IMPIAN 1\nTOTAL RM 9.00').merchant).toBe('HOME MASTER HARDWARE & ELECTRICAL');
  });

  it('reads the address under a company name and a registration number, neither of which is part of it', () => {
    const data = extractFixed('receipt', 'SOON HUAT MACHINERY ENTERPRISE\n(JM0352019-K)\nNO.53 JALAN PUTRA 1,\nTAMAN SRI PUTRA,\n81200 JOHOR BAHRU JOHOR\nTOTAL RM 9.00');
    expect(data.address).toBe('NO.53 JALAN PUTRA 1, TAMAN SRI PUTRA, 81200 JOHOR BAHRU JOHOR');
    const shop = extractFixed('receipt', 'MR D.I.Y.\nMR D.I.Y. (M) SDN BHD\n(CO. REG : 860671-D)\nLOT 1851-A, JALAN KPB 6,\n43300 SERI KEMBANGAN\nTOTAL RM 9.00');
    expect([shop.merchant, shop.address]).toEqual(['MR D.I.Y.', 'LOT 1851-A, JALAN KPB 6, 43300 SERI KEMBANGAN']);
  });

  it('knows the legal forms of Malaysia and Singapore (Sdn Bhd, Bhd, S/B, Pte Ltd)', () => {
    for (const name of ['GERBANG ALAF RESTAURANTS SDN BHD', 'AEON CO. (M) BHD', 'TASTE OF THE WORLD S/B', 'Lion City Traders Pte Ltd']) expect([name, LEGAL_FORM_END.test(name)]).toEqual([name, true]);
  });
});
