// The shared word lists: each member once, and the patterns built from them.
import {
  CUSTOMER_LABELS, HONORIFICS, LEGAL_FORM_END, LEGAL_FORMS, ORGANISATION_WORD, SUBTOTAL_LABELS, TAX_LABELS, TIP_LABELS,
  TAX_ID_LABELS, TOTAL_LABELS, TOTAL_STRONG_LABELS, VENDOR_LABELS,
} from '../../src/extraction/engines/local/lexicon.js';
import { extractJobPosting } from '../../src/extraction/engines/local/routes/job-posting.js';
import { segment } from '../../src/extraction/engines/local/segment/document.js';
import { vendorKey } from '../../src/extraction/renewal/renewal-store.js';

describe('lexicon', () => {
  it.each(Object.entries({ LEGAL_FORMS, HONORIFICS, VENDOR_LABELS, CUSTOMER_LABELS, SUBTOTAL_LABELS, TAX_LABELS, TOTAL_STRONG_LABELS, TOTAL_LABELS, TIP_LABELS, TAX_ID_LABELS }))(
    '%s lists each member once', (_name, list) => expect(new Set(list).size).toBe(list.length));

  it('no label is both a vendor and a customer label, nor two kinds of total', () => {
    expect(VENDOR_LABELS.filter((l) => CUSTOMER_LABELS.includes(l))).toEqual([]);
    const totals = [SUBTOTAL_LABELS, TAX_LABELS, TOTAL_STRONG_LABELS, TOTAL_LABELS, TIP_LABELS].flat();
    expect(new Set(totals).size).toBe(totals.length);
  });

  it('a line ends in a legal form in any of its spellings, not in a state code or an ordinary word', () => {
    for (const name of ['Acme B.V.', 'Nordlicht GmbH', 'HALDEN TRADING LTD', 'Skarv Fisk AS', 'Kovac Digital GmbH & Co. KG', 'Pellucid Holdings Limited', 'Norrsken Oy', 'Vela S.p.A.'])
      expect([name, LEGAL_FORM_END.test(name)]).toEqual([name, true]);
    for (const text of ['Denver, CO', 'Senior Software Engineer', 'The Company', 'Remote (US)'])
      expect([text, LEGAL_FORM_END.test(text)]).toEqual([text, false]);
    expect(ORGANISATION_WORD.test('Quillstone Cloud Holdings')).toBe(true);
  });

  it('the renewal store ignores every legal form in a vendor, dotted or not', () => {
    for (const [a, b] of <[string, string][]>[['Brightwater B.V.', 'Brightwater BV'], ['Vela S.p.A.', 'Vela'], ['Skarv Fisk A/S', 'Skarv Fisk'], ['Penwright LLP', 'Penwright'], ['ACME LIMITED', 'Acme Ltd.']])
      expect(vendorKey(a)).toBe(vendorKey(b));
    expect(vendorKey('Casa Nostra')).toBe('casa nostra');
  });

  it('a legal-form letterhead above a title names the company, whatever words the title has', () => {
    const job = extractJobPosting(segment('HALDEN TRADING LTD\nSenior Software Engineer\n\nWe build logistics tools.\n'));
    expect([job.company, job.title]).toEqual(['HALDEN TRADING LTD', 'Senior Software Engineer']);
  });

  it('two capitals after a comma are a region, not a legal form (Reno, NV is no company; Acme NV is)', () => {
    for (const place of ['Reno, NV', 'Calgary, AB', 'Adelaide, SA']) expect([place, LEGAL_FORM_END.test(place)]).toEqual([place, false]);
    for (const company of ['Ostrander NV', 'Vela S.A.', 'Kobbe, Inc.', 'Brightwater, B.V.']) expect([company, LEGAL_FORM_END.test(company)]).toEqual([company, true]);
    const job = extractJobPosting(segment('Warehouse Associate\nSierra Parcel Logistics\nReno, NV\n\nPick and pack orders.\n'));
    expect(job.company).toBe('Sierra Parcel Logistics');
  });
});
