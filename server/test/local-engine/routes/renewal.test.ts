// The offline engine's renewal route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import { extractFixed } from '../../../src/extraction/engines/local/index.js';
import { groundRenewal } from '../../../src/extraction/renewal/grounding.js';

// Documents several fields' tests read, each read once here.
/** leaves days null for a notice in months and reads a non-renewing term */
function readLeavesDaysNullForANotice() {
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
  const data = extractFixed('renewal', 'Dear customer, your plan with Oakleaf Ltd ends on 30 September 2026 and will not renew automatically. Tell us at least two months before the end of the term if you want a new quote.');
  return { text, data };
}

/** says no_terms_found for an unrelated document */
function readSaysNoTermsFoundForAn() {
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
  const menu = 'Lunch menu: soup of the day, sandwiches.';
  const data = extractFixed('renewal', menu);
  return { text, menu, data };
}

/** reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date` */
function readReadsAnOrderScheduleNoticeGiven() {
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
  return { text, data };
}

/** reads `Renewal of: Product, 40 seats` */
function readReadsRenewalOfProduct40Seats() {
  const data = extractFixed('renewal', 'RENEWAL QUOTE\n\nRenewal of: Sable Clinic Insights Premium, 40 seats\nRenewal fee: 10.080,00 EUR per year');
  return { data };
}

describe("autoRenewal", () => {
  it('leaves days null for a notice in months and reads a non-renewing term', () => {
    const { data } = readLeavesDaysNullForANotice();
    expect(data.autoRenewal.value).toBe(false);
  });

  it('says no_terms_found for an unrelated document', () => {
    const { data } = readSaysNoTermsFoundForAn();
    expect(data.autoRenewal).toEqual({ value: null, sourceQuote: null });
  });

  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { data } = readReadsAnOrderScheduleNoticeGiven();
    expect(data.autoRenewal.value).toBe(true);
  });

  it('quotes the sentence under an `Auto-renewal.` heading, not the heading', () => {
    const sentence = 'This Subscription renews automatically for successive twelve-month terms unless cancelled 60 days before the end of the current term.';
    const data = extractFixed('renewal', `SUBSCRIPTION TERMS\n\nVendor: Orbisoft Ltd\n\nAuto-renewal. ${sentence}\n`);
    expect([data.autoRenewal.value, data.autoRenewalLanguage.value]).toEqual([true, sentence]);
  });

  it('reads `extended automatically` as auto-renewal', () => {
    const data = extractFixed('renewal', 'LICENCE AGREEMENT\n\nThe licence term shall be extended automatically by further periods of one year unless either party objects in writing three months before it ends.');
    expect(data.autoRenewal.value).toBe(true);
  });
});

describe("noticePeriodDays", () => {
  it('leaves days null for a notice in months and reads a non-renewing term', () => {
    const { data } = readLeavesDaysNullForANotice();
    expect(data.noticePeriodDays.value).toBeNull();
  });

  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { data } = readReadsAnOrderScheduleNoticeGiven();
    expect(data.noticePeriodDays.value).toBe(90);
  });
});

describe("noticePeriodText", () => {
  it('leaves days null for a notice in months and reads a non-renewing term', () => {
    const { data } = readLeavesDaysNullForANotice();
    expect(data.noticePeriodText.value).toBe('at least two months before the end of the term');
  });
});

describe("contractEndDate", () => {
  it('leaves days null for a notice in months and reads a non-renewing term', () => {
    const { data } = readLeavesDaysNullForANotice();
    expect(data.contractEndDate.value).toBe('2026-09-30');
  });

  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { data } = readReadsAnOrderScheduleNoticeGiven();
    expect(data.contractEndDate.value).toBe('2027-06-30');
  });
});

describe("documentKindGuess", () => {
  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { data } = readReadsAnOrderScheduleNoticeGiven();
    expect(data.documentKindGuess).toBe('order_form');
  });
});

describe("paymentTermsDays", () => {
  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { data } = readReadsAnOrderScheduleNoticeGiven();
    expect(data.paymentTermsDays.value).toBe(30);
  });
});

describe("product", () => {
  it('reads `Renewal of: Product, 40 seats`', () => {
    const { data } = readReadsRenewalOfProduct40Seats();
    expect(data.product.value).toBe('Sable Clinic Insights Premium');
  });
});

describe("seatCount", () => {
  it('reads `Renewal of: Product, 40 seats`', () => {
    const { data } = readReadsRenewalOfProduct40Seats();
    expect(data.seatCount.value).toBe(40);
  });
});

describe("billingAmount", () => {
  it('reads `Renewal of: Product, 40 seats`', () => {
    const { data } = readReadsRenewalOfProduct40Seats();
    expect([data.billingAmount.value, data.currency.value, data.billingFrequency.value]).toEqual([10080, 'EUR', 'annual']);
  });

  it('takes no unit price (per user, per call) for the billed amount, nor an overage line\'s period for the billing', () => {
    const data = extractFixed('renewal', [
      'ORDER FORM',
      'Vendor: Kitewing Analytics Ltd',
      'Fees: GBP 4.20 per user per month, 300 users',
      'Storage overage charged at GBP 0.05 per GB each month',
      'Billing: invoiced quarterly in advance.',
    ].join('\n'));
    expect([data.billingAmount.value, data.billingFrequency.value]).toEqual([null, 'quarterly']);
  });
});

describe("vendorName", () => {
  it('names the vendor of a `between` sentence without its address', () => {
    const data = extractFixed('renewal', 'SUBSCRIPTION AGREEMENT\n\nThis Agreement is made between Norrsken Data Oy, Mannerheimintie 12, 00100 Helsinki ("Vendor"), and Baltic Freight AS ("Customer").\n\nThe subscription renews automatically for successive one-year terms.');
    expect(data.vendorName.value).toBe('Norrsken Data Oy');
  });

  it('names a `Vendor:` value without its address', () => {
    const data = extractFixed('renewal', 'ORDER FORM\n\nVendor: Sternwarte Cloud GmbH, Hafenweg 3, 20457 Hamburg\nSubscription term: 01.01.2027 to 31.12.2027\n');
    expect(data.vendorName.value).toBe('Sternwarte Cloud GmbH');
  });
});

describe("autoRenewalLanguage", () => {
  it.each([
    ['Provider: Larkspur Analytics GmbH\nThe licence renews automatically for one year unless cancelled 45 days before expiry.', 'The licence renews'],
    ['Vendor: Tessellate Cloud Inc.\nThis subscription will automatically renew for successive one-year terms.', 'This subscription'],
  ])('a vendor line without a full stop does not run into the next sentence', (text, start) => {
    const r = extractFixed('renewal', text);
    expect(r.autoRenewalLanguage.value).toMatch(new RegExp(`^${start}`));
    expect(r.vendorName.value).not.toMatch(/renew/);
  });
});

describe("whole answer", () => {
  describe("renewal", () => {
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
  });

  it('says no_terms_found for an unrelated document', () => {
    const { menu, data } = readSaysNoTermsFoundForAn();
    expect(groundRenewal(data, menu).overallStatus).toBe('no_terms_found');
  });

  it('reads an order schedule, notice given by `notifies`, `renew for a further period` and `within 30 days of the invoice date`', () => {
    const { text, data } = readReadsAnOrderScheduleNoticeGiven();
    expect(groundRenewal(data, text).overallStatus).toBe('confirmed');
  });

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
