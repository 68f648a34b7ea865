import { compile } from 'html-to-text';

/**
 * The text of an HTML document, as a reader sees it: block elements on their own lines, tables as aligned columns,
 * links as their text, no scripts or styles. Word wrapping is off (a line is the document's, not ours).
 */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
  });

export function htmlToText(html: string): string {
  return convert(html).trim();
}
