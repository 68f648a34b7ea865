import { extractFixed } from '../../src/extraction/engines/local/index.js';

describe('contract', () => {
  it('reads labelled parties, term dates, law and clauses under headings', () => {
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
    expect(data.title).toBe('SOFTWARE LICENSE AGREEMENT');
    expect(data.parties).toEqual([{ name: 'Bramble Code Ltd', role: 'Licensor' }, { name: 'Ostara Retail Group', role: 'Licensee' }]);
    expect([data.effectiveDate, data.expirationDate, data.governingLaw]).toEqual(['2026-01-02', '2029-01-01', 'Ireland']);
    expect([data.totalValue, data.currency]).toEqual([90000, 'EUR']);
    expect(data.keyObligations).toHaveLength(2);
    expect(data.terminationClauses).toEqual(['Either party may terminate on 60 days written notice.']);
    expect(data.renewalClauses).toEqual([]);
  });

  it('reads parties from a "by and between" sentence and strips "the State of"', () => {
    const data = extractFixed('contract', 'SERVICES AGREEMENT\n\nThis Agreement is made effective as of March 3, 2026 by and between Pelican Labs, Inc., a Texas corporation ("Vendor"), and Juniper Clinics LLC ("Client").\n\nThis Agreement shall be governed by the laws of the State of Texas.');
    expect(data.parties).toEqual([{ name: 'Pelican Labs, Inc.', role: 'Vendor' }, { name: 'Juniper Clinics LLC', role: 'Client' }]);
    expect(data.effectiveDate).toBe('2026-03-03');
    expect(data.governingLaw).toBe('Texas');
    expect(data.totalValue).toBeNull();
  });
});

describe('job posting', () => {
  it('reads labelled fields, an hourly range and the headed lists', () => {
    const data = extractFixed('job-posting', [
      'Warehouse Associate',
      'Northwind Logistics',
      'Location: Reno, NV (on-site)',
      'Job type: Part time',
      'Pay: $19.00 to $22.50 an hour',
      'Posted: April 2, 2026',
      '',
      'Duties:',
      '- Pick and pack orders',
      '- Load trucks',
      '',
      'Qualifications:',
      '- Able to lift 50 lb',
      '',
      'Benefits:',
      '- Paid time off',
    ].join('\n'));
    expect(data).toEqual({
      title: 'Warehouse Associate',
      company: 'Northwind Logistics',
      location: 'Reno, NV',
      employmentType: 'part_time',
      salaryRange: { min: 19, max: 22.5, currency: 'USD', period: 'hour' },
      requirements: ['Able to lift 50 lb'],
      responsibilities: ['Pick and pack orders', 'Load trucks'],
      benefits: ['Paid time off'],
      remote: false,
      postedDate: '2026-04-02',
    });
  });

  it('says remote true for a remote-first role and null pay when none is stated', () => {
    const data = extractFixed('job-posting', 'Staff Writer\nCompany: Inkwell Media\nWe are a remote-first team.\nEmployment type: Full-time');
    expect(data.remote).toBe(true);
    expect(data.employmentType).toBe('full_time');
    expect(data.salaryRange).toEqual({ min: null, max: null, currency: null, period: null });
    expect(data.requirements).toEqual([]);
  });
});
