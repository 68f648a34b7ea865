// Evidence as a caller sees it on the offline engine: every value with the text it was read from, whose offsets
// reproduce the quote from the text exactly as sent (UTF-16 code units), whatever its script, emoji, combining marks,
// line ends or tabs; values under the caller's threshold withheld, and charged the same.
import { startTestServer, type TestServer } from '../support/harness.js';

type Evidence = { quote: string; start: number; end: number; confidence: number; derived: boolean; page?: number; box?: unknown };
type Answer = { data: unknown; evidence: Record<string, Evidence>; withheld: { path: string; value: unknown; confidence: number; quote?: string; start?: number; end?: number }[]; usage: { heu: number }; source: { text?: string } };

/** Every non-null scalar of an answer, by JSON Pointer (a renewal member's value at `/member/value`). */
function leaves(value: unknown, pointer = '', renewal = false): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${pointer}/${i}`, renewal));
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (renewal && k === 'sourceQuote' ? [] : leaves(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, renewal)));
  }
  return [pointer];
}

const DOCUMENTS: [string, string, string][] = [
  ['invoice', 'Polish, CRLF line ends and tabs', 'FAKTURA VAT nr FV/2026/03/118\r\nData wystawienia:\t14.03.2026\r\nSprzedawca: Drukarnia Wisła Sp. z o.o.\r\nNabywca: Kawiarnia Łódź s.c.\r\n\r\nOpis\t\tIlość\tCena\tWartość\r\nUlotki A5\t\t2\t150,00 zł\t300,00 zł\r\n\r\nSuma netto: 300,00 zł\r\nVAT 23%: 69,00 zł\r\nRazem do zapłaty: 369,00 zł\r\n'],
  ['invoice', 'Japanese', '請求書\n請求書番号: INV-2026-0042\n発行日: 2026-03-14\nお支払期限: 2026-04-30\n\n株式会社さくらデザイン\n\n品目                数量    単価        金額\nロゴ制作              1     ¥200,000    ¥200,000\n\n小計: ¥200,000\n消費税(10%): ¥20,000\n合計: ¥220,000\n'],
  ['receipt', 'Korean, with emoji', '☕ 카페 한강 ☕\n서울시 마포구 와우산로 21\n날짜: 2026-05-02\n시간: 14:35\n\n아메리카노 😀     1   4,500\n카페라떼        2   11,000\n\n합계: ₩15,500\n결제: 신용카드\n'],
  ['receipt', 'Arabic, right to left', 'مقهى الواحة\nالرياض، حي العليا\nالتاريخ: 2026-03-01\nالوقت: 09:15\n\nقهوة عربية     2   30.00\nتمر            1   15.00\n\nالإجمالي: 45.00 SAR\nطريقة الدفع: نقدا\n'],
  ['contract', 'combining marks (e + U+0301) and emoji in names', 'SERVICES AGREEMENT 🤝\n\nThis Agreement is made on 1 March 2026 between Cafe\u0301 Ame\u0301lie SARL ("Client") and Zoe\u0308 Consulting Ltd ("Provider").\n\nGoverning law: France\nTotal contract value: €12.500,00\n\nTermination\n- Either party may terminate this Agreement on 30 days written notice.\n'],
  ['meeting-notes', 'German, with umlauts', 'Protokoll: Quartalsplanung\nDatum: 12.03.2026\nTeilnehmer: Jürgen Müller, Änne Schröder, Zoë Weiß\n\nBeschlüsse\n- Das Budget für Q2 wird um 5 % erhöht.\n\nAufgaben\n- Jürgen Müller: Angebot einholen bis 20.03.2026\n'],
  ['renewal', 'English with a non-breaking space and curly quotes', 'ORDER FORM\nVendor: Brightroom Scheduling, Inc.\nProduct: Brightroom Practice Plan\nFees: $1,200.00\u00a0per month, billed monthly\nSubscription Start Date: March 1, 2026\nSubscription End Date: February 28, 2027\nThis Order Form renews automatically for successive 12-month terms unless either party gives sixty (60) days’ written notice before the end of the then-current term.\n'],
];

describe('evidence on the offline engine', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_evidence', plan: 'starter' } });
    key = (await s.createKey('acct_evidence')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = async (route: string, body: unknown): Promise<{ status: number; body: Answer }> => {
    const res = await s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  it.each(DOCUMENTS)('%s (%s): every quote is text.slice(start, end) of the text as sent, and every value has evidence', async (route, _label, text) => {
    const { status, body } = await extract(route, { document: { text }, minConfidence: 0, returnText: true });
    expect(status).toBe(200);
    expect(body.source.text).toBe(text);
    const values = leaves(body.data, '', route === 'renewal');
    expect(values.length).toBeGreaterThanOrEqual(2);
    for (const [pointer, e] of Object.entries(body.evidence)) {
      expect([pointer, text.slice(e.start, e.end)]).toEqual([pointer, e.quote]);
      expect(e.confidence).toBeGreaterThanOrEqual(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
      expect(e.page).toBeUndefined();
      expect(e.box).toBeUndefined();
    }
    // minConfidence 0 withholds nothing, and every value found has its evidence.
    expect(body.withheld).toEqual([]);
    expect(values.filter((p) => !(p in body.evidence))).toEqual([]);
  });

  it('a value under minConfidence is null in data and listed in withheld with its evidence; the charge is the same', async () => {
    const all = await extract('invoice', { document: { text: DOCUMENTS[0]![2] }, minConfidence: 0 });
    const none = await extract('invoice', { document: { text: DOCUMENTS[0]![2] }, minConfidence: 1 });
    expect(none.status).toBe(200);
    expect(none.body.usage.heu).toBe(all.body.usage.heu);
    expect(Object.keys(none.body.evidence)).toEqual([]);
    const found = leaves(all.body.data);
    expect(none.body.withheld.map((w) => w.path).sort()).toEqual(found.sort());
    for (const w of none.body.withheld) {
      expect(w.confidence).toBeLessThan(1);
      if (w.quote !== undefined) expect(DOCUMENTS[0]![2].slice(w.start!, w.end!)).toBe(w.quote);
    }
    const data = none.body.data as Record<string, unknown>;
    expect(data.invoiceNumber).toBeNull();
    expect(data.lineItems).toEqual([]);
  });

  it('a renewal term withheld goes whole ({value: null, sourceQuote: null}) and the status asks for review', async () => {
    const { status, body } = await extract('renewal', { document: { text: DOCUMENTS[6]![2] }, minConfidence: 1 }) as { status: number; body: Answer & { overall_status: string; data: Record<string, { value: unknown; sourceQuote: unknown }> } };
    expect(status).toBe(200);
    expect(body.withheld.length).toBeGreaterThan(3);
    for (const w of body.withheld) {
      const member = w.path.split('/')[1]!;
      expect(body.data[member]).toEqual({ value: null, sourceQuote: null });
    }
    expect(body.overall_status).toBe('needs_review');
  });

  it.each([
    ['a negative threshold', -0.1],
    ['a threshold over 1', 1.5],
    ['a string', 'high'],
  ])('refuses %s with 400 and charges nothing', async (_label, minConfidence) => {
    const before = await s.db.prisma.usageRecord.count();
    const { status, body } = await extract('invoice', { document: { text: 'Invoice No: 1\nTotal: $5.00' }, minConfidence });
    expect(status).toBe(400);
    expect((body as unknown as { error: { code: string } }).error.code).toBe('invalid_request');
    expect(await s.db.prisma.usageRecord.count()).toBe(before);
  });
});
