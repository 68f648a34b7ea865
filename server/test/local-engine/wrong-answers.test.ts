// The wrong answers issue 20 lists, each fixed in general form: tests on newly written documents of the same shapes.
import { extractCustom, extractFixed } from '../../src/extraction/engines/local/index.js';
import type { JsonSchema } from '../../src/extraction/engines/engine.js';

describe('invoice.invoiceNumber', () => {
  it.each([
    ['Invoice QX-2291\nBill To: Pell & Sons\nTotal: $310.00', 'QX-2291'],
    ['TAX INVOICE TI/2026/118\nTotal due: £84.00', 'TI/2026/118'],
    ['Rechnung RE-2026-04\nGesamtbetrag: 120,00 €', 'RE-2026-04'],
  ])('a title line with one code: %j', (text, want) => expect(extractFixed('invoice', text).invoiceNumber).toBe(want));
  it('a title line with a date is no number', () => expect(extractFixed('invoice', 'Invoice 2026-03-01\nTotal: $12.00').invoiceNumber).toBeNull());
});

describe('contract.parties and contract.title', () => {
  it('a one-line agreement between two companies', () => {
    const c = extractFixed('contract', 'Supply Agreement between Kilnmoor Pottery Ltd and Vantreight Homeware B.V., governed by the laws of the Netherlands.');
    expect(c.title).toBe('Supply Agreement');
    expect(c.parties).toEqual([{ name: 'Kilnmoor Pottery Ltd', role: null }, { name: 'Vantreight Homeware B.V.', role: null }]);
  });
  it('names without a legal form are not guessed', () => {
    const c = extractFixed('contract', 'This letter is between you and me and sets out what we agreed.');
    expect(c.parties).toEqual([]);
    expect(c.title).toBeNull();
  });
});

describe('job-posting.company and job-posting.location', () => {
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

describe('receipt.merchant', () => {
  it.each(['TOTAL 7.40 VISA', 'Total 7.40\nCard', 'Thanks for visiting!\nTOTAL 7.40'])('no letterhead, no merchant: %j', (text) =>
    expect(extractFixed('receipt', text).merchant).toBeNull());
  it('a letterhead above the total is the merchant', () => expect(extractFixed('receipt', 'PEBBLE CAFE\nTOTAL 7.40\nCARD').merchant).toBe('PEBBLE CAFE'));
});

describe('custom name from the title line', () => {
  const schema = { type: 'object', properties: { eventName: { type: 'string' }, capacity: { type: 'integer' } } } as JsonSchema;
  it.each([
    ['Harbour Book Fair, 300 seats', 'Harbour Book Fair'],
    ['Winter Code Retreat, 40 places, 9 January 2027', 'Winter Code Retreat'],
    ['Smith, Jones and Partners Summit', 'Smith, Jones and Partners Summit'],
  ])('%j', (text, want) => expect(extractCustom(schema, text).eventName).toBe(want));
});

describe('renewal.autoRenewalLanguage', () => {
  it.each([
    ['Provider: Larkspur Analytics GmbH\nThe licence renews automatically for one year unless cancelled 45 days before expiry.', 'The licence renews'],
    ['Vendor: Tessellate Cloud Inc.\nThis subscription will automatically renew for successive one-year terms.', 'This subscription'],
  ])('a vendor line without a full stop does not run into the next sentence', (text, start) => {
    const r = extractFixed('renewal', text);
    expect(r.autoRenewalLanguage.value).toMatch(new RegExp(`^${start}`));
    expect(r.vendorName.value).not.toMatch(/renew/);
  });
});
