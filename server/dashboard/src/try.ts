// The "Try a document" page: paste text or drop a file, pick a route (or a schema of your own) and a key, and see each
// value beside the document. Selecting a value highlights its quote in the text read and, for a PDF or an image, its
// box on the rendered page. Low-confidence values and withheld ones are marked for review. The extraction runs as the
// chosen key through POST /v1/keys/{id}/extract (this page holds a session, never a raw key) and is metered like any
// API call.
import { DocExtractError, mediaTypeOf, type DocExtract, type Evidence, type WithheldValue } from '../../../sdk/src/index.js';
import type { components } from '../../../sdk/src/contract.js';
import { h, notice, render, reveal } from './dom.js';
import { pageView, type PageView } from './page-view.js';
import { leaves } from '../../../sdk/src/pointer-leaves.js';

type KeyExtraction = components['schemas']['KeyExtraction'];
type Kind = components['schemas']['ExtractionKind'];

const ROUTES: Array<{ value: Kind | 'custom'; label: string }> = [
  { value: 'invoice', label: 'Invoice' },
  { value: 'receipt', label: 'Receipt' },
  { value: 'contract', label: 'Contract' },
  { value: 'job-posting', label: 'Job posting' },
  { value: 'meeting-notes', label: 'Meeting notes' },
  { value: 'renewal', label: 'SaaS renewal terms' },
  { value: 'custom', label: 'Custom: a schema of your own' },
];

const SAMPLE_SCHEMA = JSON.stringify({ type: 'object', properties: { title: { type: 'string' }, date: { type: 'string', format: 'date' }, total: { type: 'number' } } }, null, 2);
/** Under this a returned value is marked "check": calibrated, so about one in five such values is wrong. */
const LOW_CONFIDENCE = 0.8;
const FILE_TYPES = '.pdf,.png,.jpg,.jpeg,.webp,.tif,.tiff,.txt,.md,.markdown,.html,.htm,.docx,.xlsx,.csv,.eml,.msg';
const MAX_FILE_BYTES = 10 * 1024 * 1024;

interface Row {
  pointer: string;
  value: unknown;
  confidence: number | null;
  where: Pick<Evidence, 'quote' | 'start' | 'end' | 'page' | 'box'> | null;
  withheld: boolean;
}

const unescapeStep = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');


/** A field's name for people: `lineItems/0/amount` as "Line items 1 · Amount", a renewal's `/x/value` as its term. */
export function fieldLabel(pointer: string): string {
  const steps = pointer.split('/').slice(1).map(unescapeStep).filter((s, i, all) => !(s === 'value' && i === all.length - 1 && all.length > 1));
  return steps.map((s) => (/^\d+$/.test(s) ? String(Number(s) + 1) : s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase()))).join(' · ');
}

const shown = (v: unknown) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : typeof v === 'string' ? v : JSON.stringify(v));

function rowsOf(answer: KeyExtraction): Row[] {
  const rows: Row[] = leaves(answer.data).map(([pointer, value]) => {
    const e = answer.evidence[pointer];
    return { pointer, value, confidence: e?.confidence ?? null, where: e ?? null, withheld: false };
  });
  for (const w of answer.withheld as WithheldValue[]) {
    const where = w.quote !== undefined && w.start !== undefined && w.end !== undefined ? { quote: w.quote, start: w.start, end: w.end, page: w.page, box: w.box } : null;
    rows.push({ pointer: w.path, value: w.value, confidence: w.confidence, where, withheld: true });
  }
  return rows;
}

/** What a failed run says to a person, from the error's code. */
function failureText(e: unknown): string {
  if (!(e instanceof DocExtractError)) return `The extraction could not run: ${(e as Error).message}`;
  switch (e.code) {
    case 'plan_limit_exceeded': return 'This month\u2019s HEU left cannot cover this document. Upgrade on the Billing page, or try a shorter document.';
    case 'too_many_requests': return `Too many requests right now (${e.message}) Try again in a moment.`;
    case 'not_found': return 'That key is no longer active (it was revoked). Pick another key, or create one on the API keys page.';
    case 'invalid_schema': return `The schema cannot be used: ${e.message}`;
    case 'payload_too_large': return `The document is too large: ${e.message}`;
    case 'document_unreadable': case 'document_encrypted': case 'document_type_mismatch': return `The file cannot be read: ${e.message}`;
    default: return `The extraction failed (${e.code}): ${e.message}`;
  }
}

export async function tryPage(main: HTMLElement, api: DocExtract): Promise<void> {
  const status = h('div', { 'aria-live': 'polite', id: 'try-status' });
  const results = h('section', { id: 'try-results', 'aria-labelledby': 'results-heading', hidden: true });

  const text = h('textarea', { id: 'doc-text', name: 'text', rows: '8', placeholder: 'Paste the text of an invoice, a receipt, a contract\u2026' }) as HTMLTextAreaElement;
  const file = h('input', { id: 'doc-file', name: 'file', type: 'file', accept: FILE_TYPES }) as HTMLInputElement;
  const chosen = h('p', { id: 'file-chosen', class: 'muted' });
  const clearFile = h('button', { type: 'button', class: 'link', hidden: true }, 'Remove the file');
  const drop = h('div', { class: 'drop', id: 'drop-zone' },
    h('label', { for: 'doc-file' }, 'Or drop a file here, or choose one (PDF, image, DOCX, XLSX, CSV, EML or MSG e-mail, text, Markdown, HTML; up to 10 MB)', file), chosen, clearFile);
  const route = h('select', { id: 'route', name: 'route' }, ...ROUTES.map((r) => h('option', { value: r.value }, r.label))) as HTMLSelectElement;
  const schema = h('textarea', { id: 'schema', name: 'schema', rows: '7', spellcheck: 'false' }) as HTMLTextAreaElement;
  schema.value = SAMPLE_SCHEMA;
  const schemaField = h('label', { for: 'schema', id: 'schema-field', hidden: true }, 'JSON Schema', schema);
  const key = h('select', { id: 'key', name: 'key' }) as HTMLSelectElement;
  const threshold = h('input', { id: 'min-confidence', name: 'minConfidence', type: 'number', min: '0', max: '1', step: 'any', value: '0.5' }) as HTMLInputElement;
  const run = h('button', { type: 'submit', id: 'run' }, 'Extract');
  const form = h('form', { 'aria-label': 'Try a document', class: 'try-form' },
    h('label', { for: 'doc-text', class: 'wide' }, 'Paste text', text),
    drop,
    h('label', { for: 'route' }, 'Route', route),
    schemaField,
    h('label', { for: 'key' }, 'Run as key', key),
    h('label', { for: 'min-confidence' }, 'Withhold below confidence', threshold),
    run);

  const setFile = (f: File | null) => {
    if (f) {
      const dt = new DataTransfer();
      dt.items.add(f);
      file.files = dt.files;
    } else file.value = '';
    const picked = file.files?.[0];
    chosen.textContent = picked ? `File: ${picked.name} (${Math.ceil(picked.size / 1024)} KB) \u2014 sent instead of the text` : '';
    clearFile.hidden = !picked;
    // Only one of them is sent: the text box says so by being off while a file is chosen.
    text.disabled = !!picked;
  };
  file.addEventListener('change', () => setFile(file.files?.[0] ?? null));
  clearFile.addEventListener('click', () => setFile(null));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer?.files?.[0];
    if (f) setFile(f);
  });
  route.addEventListener('change', () => { schemaField.hidden = route.value !== 'custom'; });

  const keys = [];
  for await (const k of api.keys.listAll()) if (!k.revokedAt) keys.push(k);
  key.replaceChildren(...keys.map((k) => h('option', { value: k.id }, `${k.name} (${k.prefix}\u2026)`)));
  const noKeys = keys.length === 0
    ? h('p', { class: 'notice', role: 'status', id: 'no-keys' }, 'Runs are made as one of your API keys, and you have none active. ', h('a', { href: '/dashboard/keys' }, 'Create a key'), ' first.')
    : null;
  run.toggleAttribute('disabled', keys.length === 0);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const picked = file.files?.[0] ?? null;
    if (!picked && !text.value.trim()) {
      status.replaceChildren(notice('Paste some text or choose a file first.', 'error'));
      text.focus();
      return;
    }
    if (picked && picked.size > MAX_FILE_BYTES) {
      status.replaceChildren(notice('The file is over 10 MB, the most the service reads.', 'error'));
      return;
    }
    const mediaType = picked ? picked.type || mediaTypeOf(picked.name) : undefined;
    if (picked && !mediaType) {
      status.replaceChildren(notice(`The service does not read ${picked.name}: send a PDF, an image, a DOCX, XLSX or CSV file, an e-mail (EML, MSG), text, Markdown or HTML.`, 'error'));
      return;
    }
    let parsedSchema: unknown;
    if (route.value === 'custom') {
      try {
        parsedSchema = JSON.parse(schema.value);
      } catch (err) {
        status.replaceChildren(notice(`The schema is not JSON: ${(err as Error).message}`, 'error'));
        schema.focus();
        return;
      }
    }
    const minConfidence = Number(threshold.value);
    const document = picked ? { file: picked, mediaType: mediaType!, filename: picked.name } : { text: text.value };
    const request = { document, returnText: true, ...(threshold.value !== '' && minConfidence >= 0 && minConfidence <= 1 ? { minConfidence } : {}),
      ...(route.value === 'custom' ? { schema: parsedSchema as components['schemas']['JsonSchemaObject'] } : { kind: route.value as Kind }) };
    run.setAttribute('disabled', '');
    run.textContent = 'Extracting\u2026';
    results.setAttribute('aria-busy', 'true');
    status.replaceChildren(h('p', { class: 'notice', role: 'status', id: 'try-loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` Extracting as ${key.selectedOptions[0]?.textContent ?? 'your key'}\u2026`));
    try {
      const answer = await api.keys.extract(key.value, request as Parameters<DocExtract['keys']['extract']>[1]);
      status.replaceChildren();
      await show(answer, picked, minConfidence);
    } catch (err) {
      status.replaceChildren(notice(failureText(err), 'error'));
    } finally {
      run.removeAttribute('disabled');
      run.textContent = 'Extract';
      results.removeAttribute('aria-busy');
      // How many runs have finished, for whoever waits on the page (its tests) to tell a new answer from the last.
      form.dataset.runs = String(Number(form.dataset.runs ?? 0) + 1);
    }
  });

  /** The answer beside the document: the fields, and the text read (and the page, for a PDF or an image). */
  async function show(answer: KeyExtraction, picked: File | null, threshold: number): Promise<void> {
    const read = answer.source.text ?? '';
    const rows = rowsOf(answer);
    const view: PageView | null = picked && (answer.source.mediaType === 'application/pdf' || answer.source.mediaType.startsWith('image/')) ? await pageView(picked, answer.source.mediaType) : null;
    const textView = h('pre', { id: 'text-view', class: 'text-view', tabindex: '0', 'aria-label': 'The text the service read' });
    const paint = (row: Row | null) => {
      const w = row?.where;
      if (!w) { textView.replaceChildren(read); return; }
      const mark = h('mark', { id: 'quote-mark' }, read.slice(w.start, w.end));
      textView.replaceChildren(read.slice(0, w.start), mark, read.slice(w.end));
      // Only the text pane scrolls to the quote: scrolling the window would take the page and its box off the screen.
      reveal(textView, mark);
    };
    paint(null);
    const buttons: HTMLElement[] = [];
    const select = async (row: Row, button: HTMLElement) => {
      for (const b of buttons) b.setAttribute('aria-pressed', String(b === button));
      paint(row);
      await view?.show(row.where?.page ?? 1, row.where?.box ?? null);
      // The document pane follows the list (sticky); until it has reached the top of the window, its lower part may be
      // below the fold: the window moves up just enough to show it whole, which keeps the value pressed on screen.
      const below = documentPane.getBoundingClientRect().bottom - window.innerHeight;
      if (below > 0 && getComputedStyle(documentPane).position === 'sticky') window.scrollBy({ top: below, behavior: 'instant' });
      const w = row.where;
      selection.replaceChildren(w
        ? h('p', {}, h('strong', {}, fieldLabel(row.pointer)), `: read from \u201c${w.quote}\u201d${w.page ? ` on page ${w.page}` : ''} (characters ${w.start}\u2013${w.end}).`)
        : h('p', {}, h('strong', {}, fieldLabel(row.pointer)), ': no evidence: the service could not point at the text of this value.'));
    };
    const item = (row: Row) => {
      const low = !row.withheld && row.confidence !== null && row.confidence < LOW_CONFIDENCE;
      const marks = [
        row.withheld ? h('span', { class: 'badge review' }, 'Withheld: review') : null,
        low ? h('span', { class: 'badge check' }, 'Low confidence: check') : null,
        !row.where ? h('span', { class: 'badge none' }, 'No evidence') : null,
      ];
      const button = h('button', { type: 'button', class: `field${row.withheld ? ' withheld' : low ? ' low' : ''}`, 'aria-pressed': 'false', 'data-pointer': row.pointer },
        h('span', { class: 'field-name' }, fieldLabel(row.pointer)),
        h('span', { class: 'field-value' }, shown(row.value)),
        h('span', { class: 'field-meta' }, row.confidence === null ? 'confidence unknown' : `confidence ${row.confidence.toFixed(2)}`, ...marks));
      button.addEventListener('click', () => void select(row, button));
      buttons.push(button);
      return h('li', {}, button);
    };
    const returned = rows.filter((r) => !r.withheld);
    const withheld = rows.filter((r) => r.withheld);
    const review = withheld.length + returned.filter((r) => r.confidence !== null && r.confidence < LOW_CONFIDENCE).length;
    const selection = h('div', { id: 'selection', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Select a value to see where it was read.'));
    const fields = h('div', { class: 'fields', id: 'fields' },
      h('p', { id: 'summary' }, `${returned.length} value${returned.length === 1 ? '' : 's'} returned, ${withheld.length} withheld below ${threshold}; ${review} to review. ${answer.model}, ${answer.usage.heu} HEU charged.`),
      returned.length ? h('ul', { class: 'field-list', 'aria-label': 'Values returned' }, ...returned.map(item)) : h('p', {}, 'No value was returned.'),
      withheld.length ? h('h3', {}, 'Withheld: below your threshold, for review') : null,
      withheld.length ? h('ul', { class: 'field-list', 'aria-label': 'Values withheld' }, ...withheld.map(item)) : null);
    // The document pane: where the selected value was read (its quote in words), the page with its box, the text read.
    const documentPane = h('div', { class: `document-pane${view?.note === undefined && view ? ' with-page' : ''}`, id: 'document-pane' },
      selection,
      view ? view.element : null,
      view ? h('h3', {}, 'Text read') : null,
      view?.note ? notice(view.note) : null,
      textView);
    results.replaceChildren(h('h2', { id: 'results-heading', tabindex: '-1' }, `Result: ${ROUTES.find((r) => r.value === answer.kind)?.label ?? answer.kind}${answer.overall_status ? `, ${answer.overall_status.replace('_', ' ')}` : ''}`),
      h('div', { class: 'side-by-side' }, documentPane, fields));
    results.hidden = false;
    (results.querySelector('h2') as HTMLElement).focus?.();
  }

  render(main, h('h1', {}, 'Try a document'),
    h('p', {}, 'Extract from a document as one of your API keys and see each value beside the text it was read from. A run is metered like any API call: its HEU come from this month\u2019s bucket.'),
    ...(noKeys ? [noKeys] : []), form, status, results);
}
