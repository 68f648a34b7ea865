import { compile } from 'html-to-text';

/**
 * The text of an HTML document, as a reader sees it: block elements on their own lines, tables as aligned columns,
 * links as their text, no scripts or styles. Word wrapping is off (a line is the document's, not ours).
 */
const SELECTORS = [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
];
const convert = compile({ wordwrap: false, selectors: SELECTORS });
// Paragraphs as lines: a word processor's paragraph is a line of the document (an address is three of them).
const convertLines = compile({ wordwrap: false, selectors: [...SELECTORS, { selector: 'p', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } }] });

/** `paragraphsAsLines`: each paragraph one line, an empty paragraph an empty line (Word documents). */
export function htmlToText(html: string, options: { paragraphsAsLines?: boolean } = {}): string {
  if (!options.paragraphsAsLines) return convert(html).trim();
  // An empty paragraph is kept as a line holding a zero-width space, taken out once converted.
  return convertLines(html.replace(/<p>\s*<\/p>/g, '<p>\u200b</p>')).replace(/\u200b/g, '').replace(/\n{3,}/g, '\n\n').trim();
}
