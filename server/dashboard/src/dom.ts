// A tiny element builder: text is always set as text, never parsed as HTML.
type Attrs = Record<string, string | boolean | undefined>;

export function h(tag: string, attrs: Attrs = {}, ...children: Array<Node | string | null | undefined | false>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** Replaces the page's content and moves focus to its heading, so screen readers announce the new page. */
export function render(main: HTMLElement, ...children: Node[]): void {
  main.replaceChildren(...children);
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}

export function notice(text: string, kind: 'info' | 'error' = 'info'): HTMLElement {
  return h('p', { class: `notice ${kind === 'error' ? 'error' : ''}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A count as people read it, with the reader's thousands separators (10,000). */
export const count = (n: number) => n.toLocaleString();

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A button that copies a field's value, or selects it for Ctrl+C where the clipboard is refused. */
export function copyButton(field: HTMLInputElement, label: string, attrs: Attrs = {}): HTMLElement {
  const copy = h('button', { type: 'button', class: 'secondary', ...attrs }, label);
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      copy.textContent = 'Copied';
    } catch {
      field.select();
      copy.textContent = 'Press Ctrl+C to copy';
    }
  });
  return copy;
}

/**
 * Scrolls `container`, and nothing else (not the window, not the other panes), so that `target` sits in its middle,
 * or at its start when it is larger than the container.
 */
export function reveal(container: HTMLElement, target: Element): void {
  const c = container.getBoundingClientRect();
  const t = target.getBoundingClientRect();
  container.scrollTop += t.top - c.top - Math.max(0, (container.clientHeight - t.height) / 2);
  container.scrollLeft += t.left - c.left - Math.max(0, (container.clientWidth - t.width) / 2);
}
