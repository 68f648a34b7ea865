// The offline engine's job-posting route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';

// Documents several fields' tests read, each read once here.
/** says remote true for a remote-first role and null pay when none is stated */
function readSaysRemoteTrueForARemote() {
  const data = extractFixed('job-posting', 'Staff Writer\nCompany: Inkwell Media\nWe are a remote-first team.\nEmployment type: Full-time');
  return { data };
}

/** reads a list under `Why <Company>?` as the benefits */
function readReadsAListUnderWhyCompany() {
  const data = extractFixed('job-posting', 'Junior Accountant\nHarrow & Finch\n\nAbout you\n• AAT qualified\n\nWhy Harrow & Finch?\n• Paid study leave\n• 25 days annual leave');
  return { data };
}

/** reads a pipe-separated summary line by the shape of each part */
function readReadsAPipeSeparatedSummaryLine() {
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
  return { data };
}

/** reads `Company, City, Region` under the title after a hiring banner, and a workplace part */
function readReadsCompanyCityRegionUnderThe() {
  const data = extractFixed('job-posting', [
    'Brightline Labs is hiring!',
    '',
    'Data Engineer',
    'Brightline Labs, Austin, TX',
    'Full-time | Remote (US) | $120,000 - $140,000 per year',
  ].join('\n'));
  return { data };
}

describe("remote", () => {
  it('says remote true for a remote-first role and null pay when none is stated', () => {
    const { data } = readSaysRemoteTrueForARemote();
    expect(data.remote).toBe(true);
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const { data } = readReadsCompanyCityRegionUnderThe();
    expect(data.remote).toBe(true);
  });
});

describe("employmentType", () => {
  it('says remote true for a remote-first role and null pay when none is stated', () => {
    const { data } = readSaysRemoteTrueForARemote();
    expect(data.employmentType).toBe('full_time');
  });

  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.employmentType).toBe('part_time');
  });
});

describe("salaryRange", () => {
  it('a bare $ is the dollar its pay line names in brackets', () => {
    const data = extractFixed('job-posting', 'Line Cook\nCompany: Harbourside Grill\nLocation: Auckland, New Zealand\nPay: $29.00 - $32.00 per hour (NZD)\nPart-time');
    expect(data.salaryRange).toEqual({ min: 29, max: 32, currency: 'NZD', period: 'hour' });
  });

  it('says remote true for a remote-first role and null pay when none is stated', () => {
    const { data } = readSaysRemoteTrueForARemote();
    expect(data.salaryRange).toEqual({ min: null, max: null, currency: null, period: null });
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const { data } = readReadsCompanyCityRegionUnderThe();
    expect(data.salaryRange).toEqual({ min: 120000, max: 140000, currency: 'USD', period: 'year' });
  });
});

describe("requirements", () => {
  it('says remote true for a remote-first role and null pay when none is stated', () => {
    const { data } = readSaysRemoteTrueForARemote();
    expect(data.requirements).toEqual([]);
  });

  it('reads a list under `Why <Company>?` as the benefits', () => {
    const { data } = readReadsAListUnderWhyCompany();
    expect(data.requirements).toEqual(['AAT qualified']);
  });

  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.requirements).toEqual(['2 years in a pastry kitchen']);
  });
});

describe("benefits", () => {
  it('reads a list under `Why <Company>?` as the benefits', () => {
    const { data } = readReadsAListUnderWhyCompany();
    expect(data.benefits).toEqual(['Paid study leave', '25 days annual leave']);
  });

  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.benefits).toEqual(['Staff meals']);
  });
});

describe("company", () => {
  it('takes a legal-form line near the top as the company over a subtitle part', () => {
    const data = extractFixed('job-posting', 'Data Analyst\nWerkstudent Data - alle Geschlechter / all genders\n\nNordhafen Analytics GmbH\nLocation: Bremen, Germany\n');
    expect(data.company).toBe('Nordhafen Analytics GmbH');
  });

  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.company).toBe('Maison Dupuis SARL');
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const { data } = readReadsCompanyCityRegionUnderThe();
    expect(data.company).toBe('Brightline Labs');
  });
});

describe("title", () => {
  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.title).toBe('Pastry Chef');
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const { data } = readReadsCompanyCityRegionUnderThe();
    expect(data.title).toBe('Data Engineer');
  });

  it('keeps a dashed title whole when its parts are not summary shapes', () => {
    const data = extractFixed('job-posting', 'Registered Nurse - Night Shift\nSt. Anne Hospital\n\nLocation: Cork, Ireland');
    expect(data.title).toBe('Registered Nurse - Night Shift');
  });
});

describe("location", () => {
  it('ends at a dash that starts a clause about how the work is done', () => {
    const data = extractFixed('job-posting', 'Data Analyst\nCompany: Nordlys Energi AS\nLocation: Oslo, Norway – occasional travel to Bergen\nFull-time');
    expect(data.location).toBe('Oslo, Norway');
  });

  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.location).toBe('Lyon, France');
  });

  it('reads `Company, City, Region` under the title after a hiring banner, and a workplace part', () => {
    const { data } = readReadsCompanyCityRegionUnderThe();
    expect(data.location).toBe('Austin, TX');
  });
});

describe("postedDate", () => {
  it('reads a pipe-separated summary line by the shape of each part', () => {
    const { data } = readReadsAPipeSeparatedSummaryLine();
    expect(data.postedDate).toBe('2026-02-02');
  });
});

describe("whole answer", () => {
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

  it('reads the company from a first line ending in a legal form and the title from the line below', () => {
    const data = extractFixed('job-posting', 'Brenner Feinmechanik GmbH\nCNC Machinist (m/f/d) – Night Shift\n\nLocation: Ulm, Germany\n\nYour tasks\n- Set up and run 5-axis machines\n');
    expect([data.title, data.company, data.location]).toEqual(['CNC Machinist (m/f/d) – Night Shift', 'Brenner Feinmechanik GmbH', 'Ulm, Germany']);
  });

  it('reads the company from `Name · Careers` and from a line ending in `Inc.`', () => {
    const banner = extractFixed('job-posting', 'Lumen Rail AB · Careers\n\nBackend Developer\nMalmö, Sweden | On-site | Full-time\n\nWhat you will do\n- Build APIs\n');
    expect([banner.title, banner.company, banner.location]).toEqual(['Backend Developer', 'Lumen Rail AB', 'Malmö, Sweden']);
    const inc = extractFixed('job-posting', 'QA Analyst, Mobile Apps\nPinecone Labs Inc.\n\nLocation: Austin, TX\n');
    expect([inc.title, inc.company]).toEqual(['QA Analyst, Mobile Apps', 'Pinecone Labs Inc.']);
  });

  it('reads an on-site aside as not remote', () => {
    expect(extractFixed('job-posting', 'Forklift Driver\nAcme Ltd\n\nWe need a driver for our night shift (on-site).').remote).toBe(false);
  });

  it('`Title - Name` above a workplace line', () => {
    const j = extractFixed('job-posting', 'Platform Engineer - Quillby\nRemote (EU)\nSalary: €70,000 per year');
    expect([j.title, j.company, j.remote]).toEqual(['Platform Engineer', 'Quillby', true]);
    expect(String(j.location)).not.toMatch(/[()]/);
  });

  it('a workplace line is never the company; a shift is never a company', () => {
    const j = extractFixed('job-posting', 'Registered Nurse - Night Shift\nOn-site\n');
    expect(j.company).toBeNull();
    expect(j.title).toBe('Registered Nurse - Night Shift');
  });
});
