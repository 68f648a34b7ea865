// The text a page's placed runs (a PDF's text items, OCR's words) are rebuilt into: lines, empty lines, columns.
import { rebuildLayout, type PlacedText } from '../../src/documents/layout.js';

/** Runs for lines of monospaced text, 6 units a character, `pitch` apart; '' leaves the line empty. */
function runsOf(lines: string[], pitch = 12): PlacedText[] {
  const runs: PlacedText[] = [];
  lines.forEach((line, row) => {
    for (const m of line.matchAll(/\S+/g)) runs.push({ str: m[0], x: 40 + m.index! * 6, y: 50 + row * pitch, width: m[0].length * 6, height: 10 });
  });
  return runs;
}

describe('rebuildLayout', () => {
  it('keeps the empty lines of a page of short paragraphs, where most gaps hold one', () => {
    const lines = ['Title', '', 'First paragraph.', '', 'Second paragraph.', 'Its second line.', '', 'Third paragraph.', 'Its second line.', '', 'The end.'];
    expect(rebuildLayout(runsOf(lines))).toBe(lines.join('\n'));
  });

  it('keeps columns apart and aligned', () => {
    const lines = ['Item            Qty   Amount', 'Widget            2    10.00', 'Gadget           12    99.50'];
    expect(rebuildLayout(runsOf(lines))).toBe(lines.join('\n'));
  });

  it('joins an amount OCR split at its decimal point (`$14` `.50`, `$9.` `00`), not two amounts', () => {
    const run = (str: string, x: number): PlacedText => ({ str, x, y: 100, width: str.length * 25 - 8, height: 30 });
    const split = [run('Total', 100), run('$14', 600), run('.50', 690), run('Tip', 100 + 0), run('$9.', 1000), run('00', 1085)];
    const line = (runs: PlacedText[]) => rebuildLayout(runs).trim().replace(/\s+/g, ' ');
    expect(line(split.slice(0, 3))).toBe('Total $14.50');
    expect(line([run('Tip', 100), run('$9.', 1000), run('00', 1085)])).toBe('Tip $9.00');
    // Two amounts in their columns stay two.
    expect(line([run('Qty', 100), run('2', 600), run('10.00', 800)])).toBe('Qty 2 10.00');
  });
});
