// A list of objects read row by row: each row's cells go to the item's members by the table's header (a column named
// like the member), else by what the cell is (a figure with a currency or cents to the money member, the words to the
// text member). A row gives an item only for members it has evidence for.
import type { JsonSchema } from '../engine-types.js';
import type { NumberStyle, Reading } from '../normalise/money.js';
import { findAmounts } from '../normalise/money.js';
import { parseDate } from '../normalise/dates.js';
import { parseTime } from '../normalise/times.js';
import { clean, trimPunct } from '../segment/text.js';
import { kindOf, resolve } from './schema-node.js';
import { labelScore, vocabulary } from './property-words.js';

export interface Cell { text: string; start: number; end: number }

/** A row's cells: runs apart by two or more spaces, a dot leader (`Public liability ....... £5,000,000`) or a `|`. */
export function cellsOf(raw: string): Cell[] {
  const out: Cell[] = [];
  const re = /[^|.\s](?:[^|]*?[^|\s])??(?=\s{2,}|\s*\.{3,}|\s*\||\s*$)/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const text = clean(m[0].replace(/^\.+|\.{3,}$/g, ''));
    if (text) out.push({ text, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const QUANTITY = /qty|quantity|count|units|pieces|number\s*of/i;
const MONEY = /price|amount|cost|total|value|limit|fee|charge|rate|sum|paid|deduct|premium|extended|net|gross|subtotal/i;
const TEXT = /desc|name|title|item|product|label|text|type|kind|service|coverage|category|line|detail/i;

const hasLetters = (s: string) => /\p{L}{2}/u.test(s);

/** Which column of the header names each member best (a column goes to one member). */
function columnsByHeader(props: [string, JsonSchema][], header: Cell[]): Map<string, Cell> {
  const scores: { name: string; cell: Cell; score: number }[] = [];
  for (const [name, node] of props) {
    const v = vocabulary(name, node.description);
    // A column headed by the member's own name (`TO` for `to`, beside `ARR`) is that member's, whatever the words score.
    for (const cell of header) { const score = clean(cell.text).toLowerCase() === name.toLowerCase() ? 2 : labelScore(cell.text, v); if (score >= 0.5) scores.push({ name, cell, score }); }
  }
  const out = new Map<string, Cell>();
  const taken = new Set<Cell>();
  for (const s of scores.sort((a, b) => b.score - a.score)) if (!out.has(s.name) && !taken.has(s.cell)) { out.set(s.name, s.cell); taken.add(s.cell); }
  return out;
}

/** The row's cell under a header cell: the one overlapping its span most, or nearest to it. */
function cellUnder(row: Cell[], column: Cell): Cell | undefined {
  const overlap = (c: Cell) => Math.min(c.end, column.end) - Math.max(c.start, column.start);
  const best = [...row].sort((a, b) => overlap(b) - overlap(a))[0];
  return best && overlap(best) > 0 ? best : undefined;
}

/** A cell as a string member: a date or time member takes the cell's date or time in normal form, or nothing. */
function stringIn(text: string, member: JsonSchema): string | null {
  if (member.format === 'date') return parseDate(text);
  if (member.format === 'time') return parseTime(text);
  return text;
}

function numberIn(text: string, style: NumberStyle | Reading, integer: boolean): number | null {
  const a = findAmounts(text, style)[0];
  if (!a) return null;
  return integer && !Number.isInteger(a.value) ? null : a.value;
}

/** One row as an item of `node`; `header`, when the rows are a table's, maps columns to members. */
export function itemFromRow(node: JsonSchema, raw: string, header: Cell[] | null, style: NumberStyle | Reading, root: JsonSchema): Record<string, unknown> {
  const props = Object.entries((node.properties ?? {}) as Record<string, unknown>).map(([n, r]) => [n, resolve(r, root)] as [string, JsonSchema]);
  const row = cellsOf(raw);
  const out: Record<string, unknown> = Object.fromEntries(props.map(([n, p]) => [n, kindOf(p) === 'array' ? [] : null]));
  const used = new Set<Cell>();
  if (header) {
    for (const [name, column] of columnsByHeader(props, header)) {
      const cell = cellUnder(row, column);
      if (!cell) continue;
      const member = props.find(([n]) => n === name)![1];
      const kind = kindOf(member);
      const value = kind === 'number' || kind === 'integer' ? numberIn(cell.text, style, kind === 'integer') : kind === 'string' ? stringIn(cell.text, member) : null;
      if (value !== null) { out[name] = value; used.add(cell); }
    }
  }
  // Members no column named: the row's words to the one text member, its money to the one money member.
  const free = props.filter(([n]) => out[n] === null);
  const strings = free.filter(([, p]) => kindOf(p) === 'string');
  const numbers = free.filter(([, p]) => kindOf(p) === 'number' || kindOf(p) === 'integer');
  const textCell = row.find((c) => !used.has(c) && hasLetters(c.text));
  const textMember = strings.length === 1 && (!header || TEXT.test(strings[0]![0])) ? strings[0] : strings.find(([n]) => TEXT.test(n));
  let trailing = '';
  if (textMember && textCell) {
    // `Gloves 8.00` in one cell: the trailing figure is the amount, not part of the description.
    const figure = /\s+[$€£¥]?\s?\d[\d.,]*\d(?:\s?[$€£¥])?\s*$/u.exec(textCell.text);
    const words = trimPunct(figure ? textCell.text.slice(0, figure.index) : textCell.text);
    if (words) { out[textMember[0]] = words; used.add(textCell); trailing = figure?.[0] ?? ''; }
  }
  const rest = [...row.filter((c) => !used.has(c)).map((c) => c.text), trailing].join('  ');
  const quantity = numbers.find(([n]) => QUANTITY.test(n));
  const qty = /\((\d+)\)\s*$|\b[x×]\s*(\d+)\b|\b(\d+)\s*[x×]\s+|\bqty:?\s*(\d+)/i.exec(raw);
  if (quantity && qty) out[quantity[0]] = Number(qty.slice(1).find(Boolean));
  const moneyMembers = numbers.filter(([n]) => out[n] === null && !QUANTITY.test(n) && (MONEY.test(n) || numbers.length === 1));
  const money = findAmounts(rest, style).filter((a) => a.currency || a.decimals || a.value >= 1000);
  // The last figure of a row is its amount (`6.00   28.13   168.78`); with one money member that is the one.
  if (moneyMembers.length === 1 && money.length) out[moneyMembers[0]![0]] = money[money.length - 1]!.value;
  return out;
}
