// The fixed routes' fields the ranker answers when the rules do not: each field's key, the kind of candidate it takes
// and the words of its name. scripts/fit-ranker.ts learns from the same table that the routes read.
import type { CandidateKind } from './candidates.js';

export interface RankedField { kind: CandidateKind; words: readonly string[] }

export const RANKED_FIELDS = {
  'invoice:/invoiceNumber': { kind: 'id', words: ['invoice', 'number'] },
  'invoice:/issueDate': { kind: 'date', words: ['issue', 'date'] },
  'invoice:/dueDate': { kind: 'date', words: ['due', 'date'] },
  'invoice:/subtotal': { kind: 'money', words: ['subtotal'] },
  'invoice:/tax': { kind: 'money', words: ['tax'] },
  'invoice:/total': { kind: 'money', words: ['total'] },
  'invoice:/vendor/name': { kind: 'text', words: ['vendor', 'name'] },
  'invoice:/customer/name': { kind: 'text', words: ['customer', 'name'] },
  'invoice:/vendor/taxId': { kind: 'id', words: ['vendor', 'tax', 'id'] },
  'invoice:/customer/taxId': { kind: 'id', words: ['customer', 'tax', 'id'] },
  'receipt:/date': { kind: 'date', words: ['date'] },
  'receipt:/subtotal': { kind: 'money', words: ['subtotal'] },
  'receipt:/tax': { kind: 'money', words: ['tax'] },
  'receipt:/total': { kind: 'money', words: ['total'] },
  'receipt:/merchant': { kind: 'text', words: ['merchant'] },
  'receipt:/paymentMethod': { kind: 'text', words: ['payment', 'method'] },
  'contract:/effectiveDate': { kind: 'date', words: ['effective', 'date'] },
  'contract:/expirationDate': { kind: 'date', words: ['expiration', 'date'] },
  'contract:/totalValue': { kind: 'money', words: ['total', 'value'] },
  'contract:/title': { kind: 'text', words: ['title'] },
  'contract:/governingLaw': { kind: 'text', words: ['governing', 'law'] },
  'job-posting:/postedDate': { kind: 'date', words: ['posted', 'date'] },
  'job-posting:/title': { kind: 'text', words: ['title'] },
  'job-posting:/company': { kind: 'text', words: ['company'] },
  'job-posting:/location': { kind: 'text', words: ['location'] },
  'meeting-notes:/date': { kind: 'date', words: ['date'] },
  'meeting-notes:/title': { kind: 'text', words: ['title'] },
  'renewal:/billingAmount': { kind: 'money', words: ['billing', 'amount'] },
  'renewal:/vendorName': { kind: 'text', words: ['vendor', 'name'] },
  'renewal:/product': { kind: 'text', words: ['product'] },
  'renewal:/seatCount': { kind: 'count', words: ['seat', 'count'] },
  'renewal:/contractStartDate': { kind: 'date', words: ['contract', 'start', 'date'] },
  'renewal:/contractEndDate': { kind: 'date', words: ['contract', 'end', 'date'] },
  'renewal:/renewalDate': { kind: 'date', words: ['renewal', 'date'] },
  'renewal:/noticePeriodDays': { kind: 'count', words: ['notice', 'period', 'days'] },
  'renewal:/paymentTermsDays': { kind: 'count', words: ['payment', 'terms', 'days'] },
} as const satisfies Record<string, RankedField>;

export type RankedFieldKey = keyof typeof RANKED_FIELDS;
