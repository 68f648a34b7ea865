// Currencies and numbers as the world writes them: every common currency's symbol, code and abbreviation, marks several
// currencies share read by the document's other evidence, and figures grouped by spaces, apostrophes or the Indian way,
// in other scripts' digits, and in currencies without minor units.
import { currencyIn, detectCurrency, findMarks, markContext } from '../../src/extraction/engines/local/normalise/currency.js';
import { detectSpaceGroups, findAmounts, parseNumber } from '../../src/extraction/engines/local/normalise/money.js';

const amounts = (s: string, how: Parameters<typeof findAmounts>[1] = 'us') => findAmounts(s, how).map((a) => [a.value, a.currency]);

describe('currency marks', () => {
  it.each([
    ['₦1,972,625.00', 'NGN'], ['R 34 900,00', 'ZAR'], ['R1,250.00', 'ZAR'], ['MX$ 1,200.00', 'MXN'], ['$86,400.00 M.N.', 'MXN'],
    ['1 250,00 zł', 'PLN'], ['12 500 Kč', 'CZK'], ['45 000 Ft', 'HUF'], ['CHF 1’234.50', 'CHF'], ['SFr. 80.00', 'CHF'], ['Fr. 25.-', 'CHF'],
    ['₫1.500.000', 'VND'], ['1.500.000 đ', 'VND'], ['฿2,450.00', 'THB'], ['₪ 890.00', 'ILS'], ['₱1,299.00', 'PHP'], ['Rp 15.000', 'IDR'],
    ['₩316,000', 'KRW'], ['316,000원', 'KRW'], ['RMB 8,800.00', 'CNY'], ['8,800元', 'CNY'], ['CN¥ 120.00', 'CNY'], ['316,000円', 'JPY'],
    ['₹6,98,560.00', 'INR'], ['₽ 12 000', 'RUB'], ['₴ 3 400,00', 'UAH'], ['₺1.250,00', 'TRY'], ['1.250,00 TL', 'TRY'], ['E£ 450.00', 'EGP'],
    ['450.00 ج.م', 'EGP'], ['1,250.00 د.إ', 'AED'], ['Dhs 1,250.00', 'AED'], ['AED 1,250.00', 'AED'], ['﷼ 300.00', 'SAR'], ['300.00 ر.س', 'SAR'],
    ['SR 300.00', 'SAR'], ['QAR 500.00', 'QAR'], ['QR 500.00', 'QAR'], ['KSh 4,500.00', 'KES'], ['GH₵ 320.00', 'GHS'], ['NT$ 1,200', 'TWD'],
    ['HK$ 88.00', 'HKD'], ['S$ 12.50', 'SGD'], ['RM 9.00', 'MYR'], ['R$ 108,77', 'BRL'], ['ARS 12.000,00', 'ARS'], ['CLP 45.000', 'CLP'],
    ['COP 1.200.000', 'COP'], ['S/ 120.00', 'PEN'], ['PEN 120.00', 'PEN'],
  ])('%s is %s', (written, code) => {
    expect(findAmounts(written, 'us')[0]?.currency).toBe(code);
    expect(currencyIn(written)).toBe(code);
  });

  it('knows the ISO code of every currency it reads marks for', () => {
    for (const code of ['NGN', 'ZAR', 'MXN', 'PLN', 'CZK', 'HUF', 'SEK', 'NOK', 'DKK', 'CHF', 'VND', 'THB', 'ILS', 'PHP', 'IDR', 'KRW', 'CNY', 'JPY',
      'INR', 'RUB', 'UAH', 'TRY', 'EGP', 'AED', 'SAR', 'QAR', 'KES', 'GHS', 'TWD', 'HKD', 'SGD', 'MYR', 'BRL', 'ARS', 'CLP', 'COP', 'PEN']) {
      expect([code, findAmounts(`${code} 1,000.00`)[0]?.currency]).toEqual([code, code]);
    }
  });

  it('reads a capital R as the rand only directly before money, never inside a word or before a code or date', () => {
    expect(currencyIn('Route R 12 via Paarl')).toBeNull();
    expect(currencyIn('AR 500.00')).toBeNull();
    expect(amounts('Model R12   2.00')).toEqual([[2, null]]);
    expect(currencyIn('Fr. 12.06. Besprechung')).toBeNull(); // a German Friday, not francs
    expect(currencyIn('TRY AGAIN LATER')).toBeNull();
    expect(currencyIn('Senior PHP developer')).toBeNull();
    expect(currencyIn('Total (PEN) 120.00')).toBe('PEN');
  });

  it('reads `kr` by the document: its code, its language, Danish `kr.`; without evidence it names nothing', () => {
    expect(detectCurrency('Summa att betala: 1 250 kr\nMoms 25 %: 250 kr')).toBe('SEK');
    expect(detectCurrency('Beløp å betale: kr 1 250,-\nMva 25 %: kr 250,-')).toBe('NOK');
    expect(detectCurrency('Beløb i alt: kr. 1.250,00\nMoms: kr. 250,00')).toBe('DKK');
    expect(detectCurrency('Total 1,250.00 kr (NOK)')).toBe('NOK');
    expect(detectCurrency('Total 1,250 kr')).toBeNull();
    expect(findAmounts('1 250 kr', { style: 'eu', marks: markContext('Summa att betala: 1 250 kr') })[0]).toMatchObject({ value: 1250, currency: 'SEK' });
  });

  it('reads `¥` as the yuan in a Chinese document and the yen in a Japanese or other one', () => {
    expect(detectCurrency('合计 ¥8,800.00\n开票日期 2026年3月14日')).toBe('CNY');
    expect(detectCurrency('合計 ¥316,000\nお支払期限 2026年3月31日')).toBe('JPY');
    expect(detectCurrency('Total ¥316,000')).toBe('JPY');
  });

  it('keeps `$` the US dollar unless the document names another dollar or peso', () => {
    expect(detectCurrency('Total: $1,200.00')).toBe('USD');
    expect(detectCurrency('Importe: $86,400.00 M.N.\nIVA: $13,824.00')).toBe('MXN');
    expect(detectCurrency('Total $2,000.00 (pesos mexicanos)')).toBe('MXN');
    expect(detectCurrency('All amounts in Canadian dollars.\nTotal $500.00')).toBe('CAD');
    expect(detectCurrency('Amounts in USD.\nFee $5.00\nTotal $25.00')).toBe('USD');
    const marks = markContext('Subtotal $74,482.76\nIVA 16% $11,917.24\nTotal $86,400.00 M.N.');
    expect(findAmounts('Subtotal $74,482.76', { style: 'us', marks })[0]?.currency).toBe('MXN');
  });

  it('names the ₦ NGN and never the pound', () => {
    expect(detectCurrency('Total Due ₦1,972,625.00\nVAT (7.5%) ₦137,625.00')).toBe('NGN');
    expect(findMarks('Total ₦137,625.00').map((m) => m.code)).toEqual(['NGN']);
  });
});

describe('figures', () => {
  it.each([
    ['5 000 zł', 5000], ['5\u00a0000 zł', 5000], ['5\u202f000 zł', 5000], ['R 34 900,00', 34900], ['34\u00a0900,00', 34900], ['€ 1 234 567', 1234567],
    ["1'234.50", 1234.5], ['CHF 1’234.50', 1234.5], ['₹6,98,560.00', 698560], ['48,00,000', 4800000],
    ['€ 936.000,00', 936000], ['€ 936.000,-', 936000], ['936.000,- EUR', 936000], ['Fr. 25.-', 25],
    ['¥316,000', 316000], ['₩316.000', 316000], ['₫316.000', 316000], ['CLP 45.000', 45000], ['HUF 12,500', 12500], ['Rp 15.000', 15000],
    ['١٢٬٥٠٠٫٠٠ د.إ', 12500], ['٣٠٠', 300], ['１２，５００円', 12500], ['12万円', 120000],
  ])('%s is %d', (written, value) => expect(findAmounts(written, 'us')[0]?.value).toBe(value));

  it('keeps single-spaced figures apart without a currency mark or the document habit, and when other figures stand beside them', () => {
    expect(amounts('Kwota: 5 000')).toEqual([[5, null], [0, null]]);
    expect(amounts('Kwota: 5 000', { style: 'eu', spaceGroups: true })).toEqual([[5000, null]]);
    expect(amounts('Widget 2 150,00 300,00', { style: 'eu', spaceGroups: true })).toEqual([[2150, null], [300, null]]);
    expect(detectSpaceGroups('Razem do zapłaty: 34 900,00 zł')).toBe(true);
    expect(detectSpaceGroups('Total: 1,234.00')).toBe(false);
  });

  it('reads a bracketed count as itself and bracketed money as a credit', () => {
    expect(parseNumber('(6)')).toBe(6);
    expect(parseNumber('(1,250.00)')).toBe(-1250);
    expect(parseNumber('(50.00)')).toBe(-50);
  });

  it('reads a figure in its own currency before the document habit', () => {
    // One separator and three digits: thirty-eight thousand kronor, one point six five dollars... never by guesswork.
    expect(findAmounts('38.000 SEK', 'us')[0]?.value).toBe(38000);
    expect(findAmounts('KRW 1,650', 'eu')[0]?.value).toBe(1650);
    expect(findAmounts('¥1.650', 'us')[0]?.value).toBe(1650);
  });

  it('reads the bare end of a range by the currency at its other end, in several languages', () => {
    expect(amounts('od 8 000 do 12 000 zł', { style: 'eu' })).toEqual([[8000, null], [12000, 'PLN']]);
    expect(amounts('R 25 000,00 – R 32 000,00')).toEqual([[25000, 'ZAR'], [32000, 'ZAR']]);
  });

  it('reports where each figure stands in the text as written, whatever its digits', () => {
    const s = 'المجموع: ١٬٢٥٠٫٠٠ د.إ';
    const [a] = findAmounts(s);
    expect(s.slice(a!.index, a!.end)).toBe('١٬٢٥٠٫٠٠ د.إ');
    expect(a!.raw).toBe('١٬٢٥٠٫٠٠ د.إ');
  });
});
