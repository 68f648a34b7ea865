// Checks that hold for any engine's answer, whatever the document: amounts that add up, dates in order and in a
// plausible window, counts that are not negative, an amount's currency mark that agrees with the answer's currency.
// Each check that passes raises the confidence of the values it involves; one that fails lowers it (confidence.ts).
import { currencyIn } from '../engines/local/normalise/currency.js';
import { leaves, valueAt } from './pointers.js';

export interface CheckTally {
  /** Checks this value took part in that held. */
  held: number;
  /** Checks this value took part in that failed. */
  failed: number;
}

export type CheckTallies = Map<string, CheckTally>;

/** A year a document's date may plausibly have. */
const YEAR_MIN = 1900, YEAR_MAX = 2100;
const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.02, Math.abs(b) * 0.001);

class Tally {
  readonly map: CheckTallies = new Map();
  private at(p: string) {
    let t = this.map.get(p);
    if (!t) this.map.set(p, (t = { held: 0, failed: 0 }));
    return t;
  }
  held(...pointers: string[]) { for (const p of pointers) this.at(p).held++; }
  failed(...pointers: string[]) { for (const p of pointers) this.at(p).failed++; }
}

const num = (data: unknown, p: string) => { const v = valueAt(data, p); return typeof v === 'number' ? v : null; };
const str = (data: unknown, p: string) => { const v = valueAt(data, p); return typeof v === 'string' ? v : null; };

/** `subtotal + tax (+ tip) = total`, with whichever members are present; line amounts against the lines' sum. */
function totalsAddUp(t: Tally, data: unknown, items: string) {
  const sub = num(data, '/subtotal'), tax = num(data, '/tax'), tip = num(data, '/tip'), total = num(data, '/total');
  if (total !== null && sub !== null) {
    const members = ['/total', '/subtotal', ...(tax !== null ? ['/tax'] : []), ...(tip !== null ? ['/tip'] : [])];
    const sum = sub + (tax ?? 0) + (tip ?? 0);
    // A receipt whose tax is included: the subtotal is the total.
    if (close(sum, total) || tax !== null && close(sub, total)) t.held(...members); else t.failed(...members);
  }
  const list = valueAt(data, `/${items}`);
  if (!Array.isArray(list) || list.length === 0) return;
  const amounts = list.map((_, i) => num(data, `/${items}/${i}/amount`));
  list.forEach((_, i) => {
    const q = num(data, `/${items}/${i}/quantity`), u = num(data, `/${items}/${i}/unitPrice`), a = amounts[i]!;
    if (q === null || u === null || a === null) return;
    const ps = [`/${items}/${i}/quantity`, `/${items}/${i}/unitPrice`, `/${items}/${i}/amount`];
    if (close(q * u, a)) t.held(...ps); else t.failed(...ps);
  });
  if (amounts.some((a) => a === null)) return;
  const sum = (amounts as number[]).reduce((acc, a) => acc + a, 0);
  const target = sub !== null ? '/subtotal' : total !== null && tax === null ? '/total' : null;
  const goal = target === null ? null : num(data, target);
  if (target === null || goal === null) return;
  const all = [...list.map((_, i) => `/${items}/${i}/amount`), target];
  // The lines adding up to the subtotal (or a total without tax) confirm both; not adding up says little (a line
  // may be missing), so only a sum above the target counts against them.
  if (close(sum, goal)) t.held(...all);
  else if (sum > goal + 0.02) t.failed(...all);
}

/** Two dates in order: `later` not before `earlier`. */
function inOrder(t: Tally, data: unknown, earlier: string, later: string) {
  const a = str(data, earlier), b = str(data, later);
  if (!a || !b || !/^\d{4}-/.test(a) || !/^\d{4}-/.test(b)) return;
  if (a <= b) t.held(earlier, later); else t.failed(earlier, later);
}

/** The currency marks in the quotes of the amounts against the answer's currency. */
function currencyMarks(t: Tally, data: unknown, quotes: Map<string, string>, currencyPointer: string, amountPointers: string[]) {
  const currency = str(data, currencyPointer);
  if (!currency) return;
  for (const p of amountPointers) {
    const q = quotes.get(p);
    if (q === undefined) continue;
    const mark = currencyIn(q);
    if (mark === null) continue;
    if (mark === currency) t.held(p, currencyPointer); else t.failed(p, currencyPointer);
  }
}

/** Dates with a year outside the plausible window, and negative counts, fail on their own. */
function plausible(t: Tally, data: unknown, integers: Set<string>) {
  for (const { pointer, value } of leaves(data)) {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const year = Number(value.slice(0, 4));
      if (year < YEAR_MIN || year > YEAR_MAX) t.failed(pointer);
    }
    if (typeof value === 'number' && value < 0 && integers.has(pointer)) t.failed(pointer);
  }
}

export interface CheckInput {
  /** The route (`invoice`, ...) or `custom`. */
  kind: string;
  data: unknown;
  /** The quote of each value found, by pointer. */
  quotes: Map<string, string>;
  /** Pointers whose schema says integer (counts, days): never negative. */
  integers: Set<string>;
}

export function runChecks({ kind, data, quotes, integers }: CheckInput): CheckTallies {
  const t = new Tally();
  plausible(t, data, integers);
  const moneyOf = (ps: string[]) => ps.filter((p) => num(data, p) !== null);
  switch (kind) {
    case 'invoice':
      totalsAddUp(t, data, 'lineItems');
      inOrder(t, data, '/issueDate', '/dueDate');
      currencyMarks(t, data, quotes, '/currency', moneyOf(['/subtotal', '/tax', '/total', ...leaves(valueAt(data, '/lineItems'), '/lineItems').filter((l) => /\/(amount|unitPrice)$/.test(l.pointer)).map((l) => l.pointer)]));
      break;
    case 'receipt':
      totalsAddUp(t, data, 'items');
      currencyMarks(t, data, quotes, '/currency', moneyOf(['/subtotal', '/tax', '/tip', '/total', ...leaves(valueAt(data, '/items'), '/items').filter((l) => /\/(amount|unitPrice)$/.test(l.pointer)).map((l) => l.pointer)]));
      break;
    case 'contract':
      inOrder(t, data, '/effectiveDate', '/expirationDate');
      currencyMarks(t, data, quotes, '/currency', moneyOf(['/totalValue']));
      break;
    case 'job-posting': {
      const min = num(data, '/salaryRange/min'), max = num(data, '/salaryRange/max');
      if (min !== null && max !== null) { if (min <= max) t.held('/salaryRange/min', '/salaryRange/max'); else t.failed('/salaryRange/min', '/salaryRange/max'); }
      currencyMarks(t, data, quotes, '/salaryRange/currency', moneyOf(['/salaryRange/min', '/salaryRange/max']));
      break;
    }
    case 'renewal':
      inOrder(t, data, '/contractStartDate/value', '/contractEndDate/value');
      inOrder(t, data, '/contractStartDate/value', '/renewalDate/value');
      currencyMarks(t, data, quotes, '/currency/value', moneyOf(['/billingAmount/value', '/committedSpend/value']));
      break;
  }
  return t.map;
}
