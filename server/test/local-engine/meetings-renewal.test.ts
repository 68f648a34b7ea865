import { extractFixed } from '../../src/extraction/engines/local/index.js';
import { groundRenewal } from '../../src/extraction/renewal/grounding.js';

describe('meeting notes', () => {
  it('reads attendees without roles, headed lists, and action items with owners and due dates', () => {
    const data = extractFixed('meeting-notes', [
      'Meeting notes: Warehouse Safety Review',
      'Date: 9 June 2026',
      'Attendees: Rosa Diaz (Ops), Kwame Asante, Lena Fischer',
      '',
      'Agenda:',
      '- Forklift incidents',
      '- Fire drill results',
      '',
      'Decisions:',
      '- Forklift training becomes mandatory every year.',
      '',
      'Action items:',
      '- Kwame Asante: order new floor markings (due 16 June)',
      '- Lena Fischer to schedule the next drill by 2026-07-01',
      '- Rosa Diaz - update the incident log',
      '',
      'Open questions:',
      '- Who signs off on contractor inductions?',
    ].join('\n'));
    expect(data).toEqual({
      title: 'Warehouse Safety Review',
      date: '2026-06-09',
      attendees: ['Rosa Diaz', 'Kwame Asante', 'Lena Fischer'],
      topicsDiscussed: ['Forklift incidents', 'Fire drill results'],
      decisions: ['Forklift training becomes mandatory every year.'],
      actionItems: [
        { owner: 'Kwame Asante', task: 'order new floor markings', dueDate: '2026-06-16' },
        { owner: 'Lena Fischer', task: 'schedule the next drill', dueDate: '2026-07-01' },
        { owner: 'Rosa Diaz', task: 'update the incident log', dueDate: null },
      ],
      openQuestions: ['Who signs off on contractor inductions?'],
    });
  });
});

describe('renewal', () => {
  const text = [
    'ORDER FORM',
    'Vendor: Lattice Forms Inc.',
    'Product: Lattice Forms Team',
    'Seats: 18',
    'Start Date: 2026-04-01',
    'End Date: 2027-03-31',
    'Fees: $540.00 per month, billed monthly',
    'Payment Terms: Net 45',
    '',
    'This Order Form renews automatically for successive one-year terms unless either party gives notice at least 4 weeks before the end of the term.',
  ].join('\n');

  it('grounds every value in a verbatim quote and confirms a complete set of core terms', () => {
    const data = extractFixed('renewal', text);
    expect(data.documentKindGuess).toBe('order_form');
    expect(groundRenewal(data, text).overallStatus).toBe('confirmed');
    expect(data.vendorName.value).toBe('Lattice Forms Inc.');
    expect(data.seatCount.value).toBe(18);
    expect([data.billingAmount.value, data.currency.value, data.billingFrequency.value]).toEqual([540, 'USD', 'monthly']);
    expect([data.contractStartDate.value, data.contractEndDate.value, data.renewalDate.value]).toEqual(['2026-04-01', '2027-03-31', '2027-03-31']);
    expect(data.noticePeriodDays.value).toBe(28);
    expect(data.noticePeriodText.value).toBe('at least 4 weeks before the end of the term');
    expect(data.autoRenewal.value).toBe(true);
    expect(data.paymentTermsDays.value).toBe(45);
    const fold = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();
    for (const [name, member] of Object.entries(data)) {
      if (name === 'documentKindGuess' || name === 'overall_status') continue;
      const m = member as { value: unknown; sourceQuote: string | null };
      if (m.value === null) expect(m.sourceQuote).toBeNull();
      else expect(fold(text)).toContain(fold(m.sourceQuote!));
    }
  });

  it('leaves days null for a notice in months and reads a non-renewing term', () => {
    const data = extractFixed('renewal', 'Dear customer, your plan with Oakleaf Ltd ends on 30 September 2026 and will not renew automatically. Tell us at least two months before the end of the term if you want a new quote.');
    expect(data.autoRenewal.value).toBe(false);
    expect(data.noticePeriodDays.value).toBeNull();
    expect(data.noticePeriodText.value).toBe('at least two months before the end of the term');
    expect(data.contractEndDate.value).toBe('2026-09-30');
  });

  it('says no_terms_found for an unrelated document', () => {
    const menu = 'Lunch menu: soup of the day, sandwiches.';
    const data = extractFixed('renewal', menu);
    expect(groundRenewal(data, menu).overallStatus).toBe('no_terms_found');
    expect(data.autoRenewal).toEqual({ value: null, sourceQuote: null });
  });
});
