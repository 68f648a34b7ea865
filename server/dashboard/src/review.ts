// The Review page: the account's open reviews as a queue (GET /v1/reviews), one at a time: the document on the left
// (its text with the selected value's quote marked, and for a PDF or an image its page with the box drawn), the values
// on the right, withheld and low ones first. Each value is accepted as found or edited; "Resolve" sends the corrected
// data (POST /v1/reviews/{id}/resolve), and the next review opens. Keyboard: j/k (or the arrows) next and previous
// value, a accept, e edit, r resolve, n/p next and previous review.
import { DocExtractError, type DocExtract } from '../../../sdk/src/index.js';
import type { components } from '../../../sdk/src/contract.js';
import { leaves } from '../../../sdk/src/pointer-leaves.js';
import { h, notice, render, reveal, when } from './dom.js';
import { pageView, type PageView } from './page-view.js';
import { session } from './session.js';
import { fieldLabel } from './try.js';

type Review = components['schemas']['Review'];
type Summary = components['schemas']['ReviewSummary'];
type Where = { quote: string; start: number; end: number; page?: number; box?: { x: number; y: number; width: number; height: number } };

/** A value to review: what the service found, where, how sure it was, and what the person made of it. */
interface Item {
  pointer: string;
  found: unknown;
  confidence: number | null;
  where: Where | null;
  kind: 'withheld' | 'low' | 'returned';
  state: 'open' | 'accepted' | 'edited';
  value: unknown;
}

const shown = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** A value typed by a person, as the type of the value found (a number stays a number; empty is none). */
function parsed(text: string, like: unknown): unknown {
  const t = text.trim();
  if (t === '') return null;
  if (typeof like === 'number') return Number.isFinite(Number(t.replace(/,/g, ''))) ? Number(t.replace(/,/g, '')) : t;
  if (typeof like === 'boolean') return /^(true|yes|1)$/i.test(t);
  if (typeof like === 'object' && like !== null) {
    try { return JSON.parse(t); } catch { return t; }
  }
  return t;
}

/** Sets the value at a JSON Pointer in `data`, making the objects and arrays on the way. */
function setAt(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const steps = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: Record<string, unknown> | unknown[] = data;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const key = Array.isArray(at) ? Number(step) : step;
    if (last) { (at as Record<string | number, unknown>)[key] = value; return; }
    let next = (at as Record<string | number, unknown>)[key];
    if (next === null || typeof next !== 'object') {
      next = /^\d+$/.test(steps[i + 1]!) ? [] : {};
      (at as Record<string | number, unknown>)[key] = next;
    }
    at = next as Record<string, unknown>;
  });
}

/** The values of a review, the withheld first, then the low ones (lowest first), then the others as returned. */
export function itemsOf(review: Review): Item[] {
  const withheld: Item[] = review.withheld.map((w) => ({
    pointer: w.path, found: w.value, confidence: w.confidence, kind: 'withheld', state: 'open', value: w.value,
    where: w.quote !== undefined && w.start !== undefined && w.end !== undefined ? { quote: w.quote, start: w.start, end: w.end, page: w.page, box: w.box } : null,
  }));
  const returned = leaves(review.data).filter(([p]) => !review.withheld.some((w) => w.path === p)).map(([pointer, value]): Item => {
    const e = review.evidence[pointer];
    return { pointer, found: value, confidence: e?.confidence ?? null, where: e ?? null, kind: review.low.includes(pointer) ? 'low' : 'returned', state: 'open', value };
  });
  const low = review.low.map((p) => returned.find((r) => r.pointer === p)).filter((r): r is Item => !!r);
  return [...withheld, ...low, ...returned.filter((r) => r.kind === 'returned')];
}

/** The file kept with a review (a PDF, an image), read with the session, for the page view. */
async function reviewFile(id: string, review: Review, signal: AbortSignal): Promise<File | null> {
  if (!review.document.hasFile || !(review.document.mediaType === 'application/pdf' || review.document.mediaType.startsWith('image/'))) return null;
  const res = await fetch(`/v1/reviews/${encodeURIComponent(id)}/file`, { headers: { authorization: `Bearer ${session.get() ?? ''}` }, signal });
  if (!res.ok) return null;
  return new File([await res.blob()], review.document.filename ?? 'document', { type: review.document.mediaType });
}

export async function reviewPage(main: HTMLElement, api: DocExtract, signal: AbortSignal): Promise<void> {
  const queue: Summary[] = [];
  let cursor: string | null = null;
  do {
    const page = await api.reviews.list({ status: 'open', limit: 100, ...(cursor ? { cursor } : {}) });
    queue.push(...page.reviews);
    cursor = page.nextCursor;
  } while (cursor && queue.length < 500);

  const status = h('div', { 'aria-live': 'polite', id: 'review-status' });
  const position = h('p', { id: 'queue-position', class: 'muted' });
  const previousReview = h('button', { type: 'button', class: 'secondary', id: 'previous-review' }, '\u2190 Previous review (p)');
  const nextReview = h('button', { type: 'button', class: 'secondary', id: 'next-review' }, 'Next review (n) \u2192');
  const list = h('ol', { class: 'queue', id: 'review-queue', 'aria-label': 'Open reviews' });
  const workspace = h('section', { id: 'review-workspace', 'aria-labelledby': 'review-heading' });
  const keys = h('p', { class: 'muted keys', id: 'review-keys' }, 'Keys: ', h('kbd', {}, 'j'), '/', h('kbd', {}, 'k'), ' next/previous value, ',
    h('kbd', {}, 'a'), ' accept, ', h('kbd', {}, 'e'), ' edit (', h('kbd', {}, 'Enter'), ' to keep it), ', h('kbd', {}, 'r'), ' resolve, ',
    h('kbd', {}, 'n'), '/', h('kbd', {}, 'p'), ' next/previous review.');

  let index = 0;
  /** What the keyboard acts on: the review open and its values. */
  let current: { items: Item[]; selected: number; select(i: number): Promise<void>; accept(): void; edit(): void; resolve(): Promise<void> } | null = null;

  const drawQueue = () => {
    list.replaceChildren(...queue.map((r, i) => {
      const button = h('button', { type: 'button', class: 'link', 'aria-current': i === index ? 'true' : undefined },
        `${r.route} \u00b7 ${r.withheldCount} withheld, ${r.lowCount} low \u00b7 ${when(r.createdAt)}`);
      button.addEventListener('click', () => void open(i));
      return h('li', {}, button);
    }));
    position.textContent = queue.length ? `Review ${index + 1} of ${queue.length} open` : '';
    previousReview.toggleAttribute('disabled', index <= 0);
    nextReview.toggleAttribute('disabled', index >= queue.length - 1);
  };

  async function open(i: number): Promise<void> {
    if (!queue.length) {
      current = null;
      workspace.replaceChildren(h('p', { id: 'queue-empty' }, 'Nothing to review: every open review is resolved. Extractions sent with ', h('code', {}, 'review: true'), ' appear here when a value is withheld or under their ', h('code', {}, 'reviewBelow'), '.'));
      drawQueue();
      return;
    }
    index = Math.max(0, Math.min(i, queue.length - 1));
    drawQueue();
    const id = queue[index]!.id;
    const review = await api.reviews.get(id);
    const file = await reviewFile(id, review, signal).catch(() => null);
    const view: PageView | null = file ? await pageView(file, review.document.mediaType) : null;
    if (signal.aborted || queue[index]?.id !== id) return;
    const items = itemsOf(review);
    const text = review.document.text;
    const textView = h('pre', { id: 'text-view', class: 'text-view', tabindex: '0', 'aria-label': 'The text the service read' }, text);
    const selection = h('div', { id: 'selection', 'aria-live': 'polite' });
    const documentPane = h('div', { class: `document-pane${view && !view.note ? ' with-page' : ''}`, id: 'document-pane' },
      selection, view ? view.element : null, view ? h('h3', {}, 'Text read') : null, view?.note ? notice(view.note) : null, textView);
    const rows: HTMLElement[] = [];
    const inputs: HTMLInputElement[] = [];
    const marks: HTMLElement[] = [];
    const paintRow = (i: number) => {
      const item = items[i]!;
      const mark = marks[i]!;
      mark.textContent = item.state === 'accepted' ? 'Accepted' : item.state === 'edited' ? 'Edited' : item.kind === 'withheld' ? 'Withheld: check' : item.kind === 'low' ? 'Low confidence: check' : 'Returned';
      mark.className = `badge ${item.state === 'open' ? (item.kind === 'returned' ? 'none' : item.kind === 'withheld' ? 'review' : 'check') : 'status-succeeded'}`;
      rows[i]!.dataset.state = item.state;
    };
    const state = {
      items,
      selected: 0,
      async select(i: number) {
        state.selected = Math.max(0, Math.min(i, items.length - 1));
        const item = items[state.selected]!;
        rows.forEach((r, k) => r.setAttribute('aria-selected', String(k === state.selected)));
        rows[state.selected]!.scrollIntoView({ block: 'nearest' });
        const w = item.where;
        if (w) {
          const mark = h('mark', { id: 'quote-mark' }, text.slice(w.start, w.end));
          textView.replaceChildren(text.slice(0, w.start), mark, text.slice(w.end));
          reveal(textView, mark);
        } else textView.replaceChildren(text);
        await view?.show(w?.page ?? 1, w?.box ?? null);
        // As on the Try page: the document pane follows the list; until it reaches the top of the window, the window
        // moves up just enough to show it whole (the selected value stays on screen).
        const below = documentPane.getBoundingClientRect().bottom - window.innerHeight;
        if (below > 0 && getComputedStyle(documentPane).position === 'sticky') window.scrollBy({ top: below, behavior: 'instant' });
        selection.replaceChildren(w
          ? h('p', {}, h('strong', {}, fieldLabel(item.pointer)), `: read from \u201c${w.quote}\u201d${w.page ? ` on page ${w.page}` : ''}.`)
          : h('p', {}, h('strong', {}, fieldLabel(item.pointer)), ': no evidence: the service could not point at the text of this value.'));
      },
      accept() {
        const item = items[state.selected]!;
        item.state = 'accepted';
        item.value = item.found;
        inputs[state.selected]!.value = shown(item.found);
        paintRow(state.selected);
        void state.select(state.selected + 1);
      },
      edit() {
        inputs[state.selected]!.focus();
        inputs[state.selected]!.select();
      },
      async resolve() {
        // The answer's data (withheld values are null in it), with each value as the person left it: a withheld value
        // counts only once accepted or edited; any value edited is sent as typed.
        const data = structuredClone(review.data) as Record<string, unknown>;
        for (const item of items) {
          if (item.state !== 'open') setAt(data, item.pointer, item.value);
        }
        resolveButton.setAttribute('disabled', '');
        try {
          const resolved = await api.reviews.resolve(review.id, data);
          const c = resolved.resolution?.counts;
          status.replaceChildren(notice(`Resolved${c ? `: ${c.confirmed} confirmed, ${c.corrected} corrected, ${c.added} added, ${c.removed} removed` : ''}.`));
          queue.splice(index, 1);
          await open(index);
        } catch (e) {
          resolveButton.removeAttribute('disabled');
          status.replaceChildren(notice(e instanceof DocExtractError && e.status === 400 ? `The corrected values were refused: ${e.message}` : `Could not resolve: ${(e as Error).message}`, 'error'));
        }
      },
    };
    items.forEach((item, i) => {
      const input = h('input', { class: 'review-value', value: shown(item.found), 'aria-label': `${fieldLabel(item.pointer)} value`, 'data-pointer': item.pointer }) as HTMLInputElement;
      input.addEventListener('focus', () => { if (state.selected !== i) void state.select(i); });
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === 'Escape') {
          e.preventDefault();
          if (e.key === 'Enter') {
            item.value = parsed(input.value, item.found);
            item.state = JSON.stringify(item.value) === JSON.stringify(item.found) ? 'accepted' : 'edited';
          } else input.value = shown(item.state === 'open' ? item.found : item.value);
          paintRow(i);
          input.blur();
          rows[i]!.focus();
        }
      });
      input.addEventListener('change', () => {
        item.value = parsed(input.value, item.found);
        item.state = JSON.stringify(item.value) === JSON.stringify(item.found) ? 'accepted' : 'edited';
        paintRow(i);
      });
      const accept = h('button', { type: 'button', class: 'secondary', 'aria-label': `Accept ${fieldLabel(item.pointer)}` }, 'Accept');
      accept.addEventListener('click', () => { state.selected = i; state.accept(); });
      const mark = h('span', { class: 'badge' });
      marks.push(mark);
      inputs.push(input);
      const row = h('li', { class: `review-item ${item.kind}`, role: 'option', tabindex: '-1', 'aria-selected': 'false', 'data-pointer': item.pointer },
        h('span', { class: 'field-name' }, fieldLabel(item.pointer)), input,
        h('span', { class: 'field-meta' }, item.confidence === null ? 'confidence unknown' : `confidence ${item.confidence.toFixed(2)}`, mark, accept));
      row.addEventListener('click', (e) => { if (!(e.target as Element).closest('input, button')) void state.select(i); });
      rows.push(row);
      paintRow(i);
    });
    const resolveButton = h('button', { type: 'button', id: 'resolve' }, 'Resolve (r)');
    resolveButton.addEventListener('click', () => void state.resolve());
    const values = h('div', { class: 'fields', id: 'fields' },
      h('p', { id: 'summary' }, `${review.withheldCount} withheld and ${review.lowCount} low of ${items.length} values \u00b7 ${review.model}${review.document.filename ? ` \u00b7 ${review.document.filename}` : ''}`),
      h('ul', { class: 'review-list', role: 'listbox', 'aria-label': 'Values to review', id: 'review-values' }, ...rows),
      resolveButton);
    workspace.replaceChildren(h('h2', { id: 'review-heading' }, `${fieldLabel(`/${review.route}`)} \u00b7 ${when(review.createdAt)}`),
      h('div', { class: 'side-by-side' }, documentPane, values));
    current = state;
    if (items.length) await state.select(0);
  }

  const onKey = (e: KeyboardEvent) => {
    if (!main.isConnected) { document.removeEventListener('keydown', onKey); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.target as Element).closest('input, textarea, select')) return;
    const act: Record<string, () => void> = {
      j: () => void current?.select(current.selected + 1), ArrowDown: () => void current?.select(current.selected + 1),
      k: () => void current?.select(current.selected - 1), ArrowUp: () => void current?.select(current.selected - 1),
      a: () => current?.accept(), e: () => current?.edit(), r: () => void current?.resolve(),
      n: () => { if (index < queue.length - 1) void open(index + 1); }, p: () => { if (index > 0) void open(index - 1); },
    };
    const run = act[e.key];
    if (!run) return;
    e.preventDefault();
    run();
  };
  document.addEventListener('keydown', onKey);
  signal.addEventListener('abort', () => document.removeEventListener('keydown', onKey), { once: true });
  previousReview.addEventListener('click', () => void open(index - 1));
  nextReview.addEventListener('click', () => void open(index + 1));

  render(main, h('h1', {}, 'Review'),
    h('p', {}, 'Values the service withheld or was unsure of, with the document beside them. Accept or correct each, then resolve: the corrections become labelled examples of your account.'),
    keys,
    h('div', { class: 'queue-bar' }, previousReview, position, nextReview),
    h('details', { class: 'queue-details' }, h('summary', {}, 'All open reviews'), list),
    status, workspace);
  await open(0);
}
