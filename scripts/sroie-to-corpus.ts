// Converts receipts of the ICDAR 2019 SROIE dataset (third-party labels: company, date, address, total) into a labelled
// set in the corpus's format, so the offline engine can be scored on real, OCR'd receipts nobody here wrote or labelled.
//   npx tsx scripts/sroie-to-corpus.ts <SROIE data dir with box/ and key/> <out dir> [count]
// The text is rebuilt from the OCR boxes as a text layer would give it: boxes on one baseline make a line, in x order,
// with wide gaps kept as runs of spaces. Only the four labelled fields are scored (the labels hold nothing else).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Box { x: number; y: number; h: number; right: number; text: string }

function lines(csv: string): string[] {
  const boxes: Box[] = csv.split('\n').filter((l) => l.trim()).map((l) => {
    const parts = l.split(',');
    const n = parts.slice(0, 8).map(Number);
    const ys = [n[1]!, n[3]!, n[5]!, n[7]!];
    return { x: Math.min(n[0]!, n[6]!), right: Math.max(n[2]!, n[4]!), y: (Math.min(...ys) + Math.max(...ys)) / 2, h: Math.max(...ys) - Math.min(...ys), text: parts.slice(8).join(',').trim() };
  });
  const rows: Box[][] = [];
  for (const b of boxes.sort((a, c) => a.y - c.y)) {
    const row = rows.find((r) => Math.abs(r[0]!.y - b.y) < Math.max(4, 0.5 * Math.min(r[0]!.h, b.h)));
    if (row) row.push(b); else rows.push([b]);
  }
  return rows.map((r) => {
    const sorted = r.sort((a, c) => a.x - c.x);
    const charWidth = Math.max(4, ...sorted.map((b) => (b.right - b.x) / Math.max(1, b.text.length)));
    let out = '';
    let end = 0;
    for (const b of sorted) {
      const gap = out ? Math.max(1, Math.round((b.x - end) / charWidth)) : 0;
      out += ' '.repeat(gap > 1 ? Math.max(gap, 3) : gap) + b.text;
      end = b.right;
    }
    return out;
  });
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The label's date as YYYY-MM-DD: `25/12/2018` (days first, as Malaysia writes them, unless the day is over 12), `05 MAR 2018`. */
const toIso = (d: string) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  const named = /(\d{1,2})[\s-]*([A-Za-z]{3})[A-Za-z]*[\s,-]*(\d{2,4})/.exec(d);
  if (named && MONTHS.includes(named[2]!.toLowerCase())) {
    const y = named[3]!.length === 2 ? 2000 + Number(named[3]) : Number(named[3]);
    return `${y}-${pad(MONTHS.indexOf(named[2]!.toLowerCase()) + 1)}-${pad(Number(named[1]))}`;
  }
  const m = /(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})/.exec(d);
  if (!m) return null;
  if (m[1]!.length === 4) return `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}`;
  let [day, month] = [Number(m[1]), Number(m[2])];
  if (month > 12 && day <= 12) [day, month] = [month, day];
  const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  return `${y}-${pad(month)}-${pad(day)}`;
};

const [src, out, count] = process.argv.slice(2);
if (!src || !out) { console.error('usage: sroie-to-corpus.ts <data dir> <out dir> [count]'); process.exit(2); }
mkdirSync(join(out, 'receipt'), { recursive: true });
const ids = readdirSync(join(src, 'key')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort().slice(0, Number(count ?? 50));
for (const id of ids) {
  const key = JSON.parse(readFileSync(join(src, 'key', `${id}.json`), 'utf8')) as Record<string, string>;
  writeFileSync(join(out, 'receipt', `sroie-${id}.txt`), `${lines(readFileSync(join(src, 'box', `${id}.csv`), 'utf8')).join('\n')}\n`);
  const total = key.total ? Number(key.total.replace(/[^\d.]/g, '')) : null;
  writeFileSync(join(out, 'receipt', `sroie-${id}.json`), `${JSON.stringify({ merchant: key.company ?? null, address: key.address ?? null, date: key.date ? toIso(key.date) : null, total: Number.isFinite(total) ? total : null }, null, 2)}\n`);
}
console.log(`${ids.length} receipts written to ${join(out, 'receipt')}`);
