// The offline engine's contract route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';

// Documents several fields' tests read, each read once here.
/** reads labelled parties, term dates, law and clauses under headings */
function readReadsLabelledPartiesTermDatesLaw() {
  const data = extractFixed('contract', [
    'SOFTWARE LICENSE AGREEMENT',
    '',
    'Licensor: Bramble Code Ltd',
    'Licensee: Ostara Retail Group',
    'Effective Date: 2 January 2026',
    'Expiration Date: 1 January 2029',
    'License Fee: €90,000.00 in total',
    '',
    'Obligations',
    '- Licensee shall use the software only for internal purposes.',
    '- Licensor shall provide updates for the term.',
    '',
    'Termination',
    '- Either party may terminate on 60 days written notice.',
    '',
    'This Agreement is governed by the laws of Ireland.',
  ].join('\n'));
  return { data };
}

/** reads parties from a "by and between" sentence and strips "the State of" */
function readReadsPartiesFromAByAnd() {
  const data = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made effective as of March 3, 2026 by and between Pelican Labs, Inc., a Texas corporation ("Vendor"), and Juniper Clinics LLC ("Client").\n\nThis Agreement shall be governed by the laws of the State of Texas.');
  return { data };
}

/** reads `by and between:` with each party in its own paragraph, and `shall` sentences of numbered clauses */
function readReadsByAndBetweenWithEach() {
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
  return { data };
}

/** reads contract parties, the title column and `for a total of` */
function readReadsContractPartiesTheTitleColumn() {
  const data = extractFixed('contract', [
    'WINDOW CLEANING AGREEMENT                       Ref. WCA-26-09',
    '',
    'CUSTOMER                                   SUPPLIER',
    'Harbour View Offices Ltd                   Crystal Pane Services LLP',
    '12 Quay Street, Bristol BS1 4DJ            5 Mill Lane, Bath BA1 2QT',
    '',
    'The Customer shall pay the Supplier £400.00 per month, for a total of £4,800.00 over the term.',
  ].join('\n'));
  return { data };
}

/** a one-line agreement between two companies */
function readAOneLineAgreementBetweenTwo() {
  const c = extractFixed('contract', 'Supply Agreement between Kilnmoor Pottery Ltd and Vantreight Homeware B.V., governed by the laws of the Netherlands.');
  return { c };
}

/** names without a legal form are not guessed */
function readNamesWithoutALegalFormAre() {
  const c = extractFixed('contract', 'This letter is between you and me and sets out what we agreed.');
  return { c };
}

describe("title", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect(data.title).toBe('SOFTWARE LICENSE AGREEMENT');
  });

  it('reads contract parties, the title column and `for a total of`', () => {
    const { data } = readReadsContractPartiesTheTitleColumn();
    expect(data.title).toBe('WINDOW CLEANING AGREEMENT');
  });

  it('a one-line agreement between two companies', () => {
    const { c } = readAOneLineAgreementBetweenTwo();
    expect(c.title).toBe('Supply Agreement');
  });

  it('names without a legal form are not guessed', () => {
    const { c } = readNamesWithoutALegalFormAre();
    expect(c.title).toBeNull();
  });
});

describe("parties", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect(data.parties).toEqual([{ name: 'Bramble Code Ltd', role: 'Licensor' }, { name: 'Ostara Retail Group', role: 'Licensee' }]);
  });

  it('reads parties from a "by and between" sentence and strips "the State of"', () => {
    const { data } = readReadsPartiesFromAByAnd();
    expect(data.parties).toEqual([{ name: 'Pelican Labs, Inc.', role: 'Vendor' }, { name: 'Juniper Clinics LLC', role: 'Client' }]);
  });

  it('reads `by and between:` with each party in its own paragraph, and `shall` sentences of numbered clauses', () => {
    const { data } = readReadsByAndBetweenWithEach();
    expect(data.parties).toEqual([{ name: 'Pinnacle Growth Advisors, LLC', role: 'Consultant' }, { name: 'Mesa Verde Foods, Inc.', role: 'Client' }]);
  });

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

  it('reads contract parties, the title column and `for a total of`', () => {
    const { data } = readReadsContractPartiesTheTitleColumn();
    expect(data.parties).toEqual([{ name: 'Harbour View Offices Ltd', role: 'Customer' }, { name: 'Crystal Pane Services LLP', role: 'Supplier' }]);
  });

  it('names a prose party without its address and a renewal vendor under a `Vendor` heading', () => {
    const contract = extractFixed('contract', 'CONSULTING AGREEMENT\n\nThis Agreement is made between Alder Foods NV, a company incorporated in Belgium (the "Client"), and Kite Data BV, Marktplein 4, 3511 Utrecht (the "Consultant").\n');
    expect(contract.parties.map((p) => p.name)).toEqual(['Alder Foods NV', 'Kite Data BV']);
    const renewal = extractFixed('renewal', 'ORDER FORM\n\nVendor                                  Customer\nNimbus Archive AG                       Stadtwerke Lind GmbH\nBahnhofstrasse 1, 8001 Zürich           Ringstraße 2, 1010 Wien\n\nSubscription term: 01.01.2027 to 31.12.2027\n');
    expect(renewal.vendorName.value).toBe('Nimbus Archive AG');
  });

  it('ends party names before an address or a place of registration', () => {
    const data = extractFixed('contract', 'LEASE\n\nLandlord:  Red Rock Estates LLC, 9 Main St, Mesa, AZ 85201\nTenant:    Cactus Tools Co., 4 Elm Rd, Mesa, AZ 85203');
    expect(data.parties).toEqual([{ name: 'Red Rock Estates LLC', role: 'Landlord' }, { name: 'Cactus Tools Co.', role: 'Tenant' }]);
    const prose = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made between Alder Holdings Ltd, a company registered in England (the "Client"), and Weber Digital GmbH & Co. KG, of Munich, Germany (the "Contractor").');
    expect(prose.parties).toEqual([{ name: 'Alder Holdings Ltd', role: 'Client' }, { name: 'Weber Digital GmbH & Co. KG', role: 'Contractor' }]);
  });

  it('a one-line agreement between two companies', () => {
    const { c } = readAOneLineAgreementBetweenTwo();
    expect(c.parties).toEqual([{ name: 'Kilnmoor Pottery Ltd', role: null }, { name: 'Vantreight Homeware B.V.', role: null }]);
  });

  it('names without a legal form are not guessed', () => {
    const { c } = readNamesWithoutALegalFormAre();
    expect(c.parties).toEqual([]);
  });
});

describe("effectiveDate", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect([data.effectiveDate, data.expirationDate, data.governingLaw]).toEqual(['2026-01-02', '2029-01-01', 'Ireland']);
  });

  it('reads parties from a "by and between" sentence and strips "the State of"', () => {
    const { data } = readReadsPartiesFromAByAnd();
    expect(data.effectiveDate).toBe('2026-03-03');
  });

  it('reads `comes into force on` and `expiring on`', () => {
    const data = extractFixed('contract', 'DISTRIBUTION AGREEMENT\n\nThis Agreement comes into force on 1 February 2026 and remains in force for three years, expiring on 31 January 2029.');
    expect([data.effectiveDate, data.expirationDate]).toEqual(['2026-02-01', '2029-01-31']);
  });

  it('takes a phrase\'s own date, not one from the clause after it', () => {
    const data = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made on 10 January 2027 between Harlow Data Ltd ("Provider") and Pinecrest Foods plc ("Customer") and is effective from 1 February 2027.\n\n1. Term. The term commences on the Effective Date and ends on 31 January 2029.\n');
    expect([data.effectiveDate, data.expirationDate]).toEqual(['2027-02-01', '2029-01-31']);
  });

  it('reads `shall take effect on` and `will automatically renew ... on`', () => {
    const contract = extractFixed('contract', 'SERVICES AGREEMENT\n\n1.1 This Agreement shall take effect on 4 May 2026 and shall remain in force until 3 May 2027.\n');
    expect(contract.effectiveDate).toBe('2026-05-04');
    const renewal = extractFixed('renewal', 'Subject: Your Orbit Desk subscription renews June 2, 2027\n\nCurrent term: June 2, 2026 - June 1, 2027\nYour subscription will automatically renew for another one-year term on June 2, 2027 unless you tell us otherwise.\n');
    expect(renewal.renewalDate.value).toBe('2027-06-02');
  });
});

describe("totalValue", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect([data.totalValue, data.currency]).toEqual([90000, 'EUR']);
  });

  it('reads parties from a "by and between" sentence and strips "the State of"', () => {
    const { data } = readReadsPartiesFromAByAnd();
    expect(data.totalValue).toBeNull();
  });

  it('reads contract parties, the title column and `for a total of`', () => {
    const { data } = readReadsContractPartiesTheTitleColumn();
    expect([data.totalValue, data.currency]).toEqual([4800, 'GBP']);
  });
});

describe("keyObligations", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect(data.keyObligations).toHaveLength(2);
  });

  it('reads `by and between:` with each party in its own paragraph, and `shall` sentences of numbered clauses', () => {
    const { data } = readReadsByAndBetweenWithEach();
    expect(data.keyObligations).toEqual(['Consultant shall provide the services described in Exhibit A.']);
  });
});

describe("terminationClauses", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect(data.terminationClauses).toEqual(['Either party may terminate on 60 days written notice.']);
  });
});

describe("renewalClauses", () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
    const { data } = readReadsLabelledPartiesTermDatesLaw();
    expect(data.renewalClauses).toEqual([]);
  });
});

describe("governingLaw", () => {
  it('reads parties from a "by and between" sentence and strips "the State of"', () => {
    const { data } = readReadsPartiesFromAByAnd();
    expect(data.governingLaw).toBe('Texas');
  });

  it('reads `by and between:` with each party in its own paragraph, and `shall` sentences of numbered clauses', () => {
    const { data } = readReadsByAndBetweenWithEach();
    expect(data.governingLaw).toBe('Colorado');
  });
});

describe("whole answer", () => {
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
