/** A cell wider than this does not widen its column for every other row (a long description stays whole). */
const MAX_COLUMN_WIDTH = 48;

/**
 * Rows of cells as the lines of a text table, the way the engines read a table printed in a document: each column
 * padded to its width and parted from the next by two spaces, so that a row's label and its amounts stay on one line
 * and columns stay aligned. Line breaks inside a cell become spaces; empty trailing cells are left out; runs of empty
 * rows become one empty line.
 */
export function textTable(rows: readonly (readonly string[])[]): string {
  const clean = rows.map((row) => {
    const cells = row.map((cell) => cell.replace(/\s+/g, ' ').trim());
    while (cells.length && cells[cells.length - 1] === '') cells.pop();
    return cells;
  });
  const widths: number[] = [];
  for (const row of clean) row.forEach((cell, i) => { widths[i] = Math.min(MAX_COLUMN_WIDTH, Math.max(widths[i] ?? 0, cell.length)); });
  const lines: string[] = [];
  for (const row of clean) {
    const line = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
    if (line === '' && (lines.length === 0 || lines[lines.length - 1] === '')) continue;
    lines.push(line);
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
