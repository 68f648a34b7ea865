// Documents from anywhere, newly written for these tests: each route read in other languages, scripts, currencies and
// number and date conventions than English (invoices from Poland, Japan, Turkey, the UAE and Czechia; slips from
// Germany, Korea, Thailand, South Africa and Sweden; German and Spanish contracts; French and Polish minutes; Mexican,
// German and Polish job postings; a German renewal notice).
import { extractFixed } from '../../src/extraction/engines/local/index.js';

const PL_INVOICE = [
  "FAKTURA VAT nr FV/2026/03/114",
  "",
  "Data wystawienia: 14.03.2026",
  "Termin płatności: 28.03.2026",
  "",
  "Sprzedawca:",
  "Zielona Energia Sp. z o.o.",
  "ul. Przemysłowa 12",
  "61-001 Poznań",
  "NIP: 7781234567",
  "",
  "Nabywca:",
  "Hotel Pod Lipami S.A.",
  "ul. Długa 5",
  "80-831 Gdańsk",
  "NIP: 5831122334",
  "",
  "Lp  Nazwa towaru lub usługi          Ilość  J.m.   Cena netto   Wartość netto  VAT %  Kwota VAT   Wartość brutto",
  "1   Falownik hybrydowy 5 kW             1   szt.    7 800,00       7 800,00     23%    1 794,00       9 594,00",
  "2   Montaż instalacji PV               16   godz.     150,00       2 400,00     23%      552,00       2 952,00",
  "",
  "Razem netto: 10 200,00 zł",
  "Kwota VAT: 2 346,00 zł",
  "Do zapłaty: 12 546,00 zł",
].join('\n');

const JP_INVOICE = [
  "請求書",
  "",
  "請求書番号: INV-2026-0311",
  "発行日: 2026年3月14日",
  "お支払期限: 2026年4月30日",
  "",
  "請求先: 株式会社サクラ商事 御中",
  "",
  "品名                     数量      単価        金額",
  "ウェブサイト保守           1    ¥200,000    ¥200,000",
  "サーバー費用               4     ¥21,500     ¥86,000",
  "",
  "小計: ¥286,000",
  "消費税(10%): ¥28,600",
  "合計: ¥314,600",
].join('\n');

const TR_INVOICE = [
  "ANADOLU YAZILIM A.Ş.",
  "Kızılay Mah. Atatürk Blv. No: 45",
  "06420 Çankaya / Ankara",
  "Vergi No: 1234567890",
  "",
  "FATURA",
  "",
  "Fatura No: ANY2026000145",
  "Fatura Tarihi: 14.03.2026",
  "Vade Tarihi: 13.04.2026",
  "",
  "Sayın:",
  "Ege Tekstil Ltd. Şti.",
  "Alsancak, İzmir",
  "",
  "Açıklama                      Miktar   Birim Fiyat        Tutar",
  "Yazılım lisansı (yıllık)          10     1.250,00 ₺   12.500,00 ₺",
  "Kurulum hizmeti                    1     3.000,00 ₺    3.000,00 ₺",
  "",
  "Ara Toplam: 15.500,00 ₺",
  "KDV %20: 3.100,00 ₺",
  "Genel Toplam: 18.600,00 ₺",
].join('\n');

const AE_INVOICE = [
  "FALCON FACILITIES MANAGEMENT L.L.C",
  "Office 1204, Al Moosa Tower 2, Sheikh Zayed Road, Dubai",
  "TRN: 100234567800003",
  "",
  "TAX INVOICE / فاتورة ضريبية",
  "",
  "Invoice No / رقم الفاتورة: FFM-2026-0412",
  "Date / التاريخ: 14/03/2026",
  "",
  "Bill To / العميل:",
  "Marina Heights Owners Association",
  "Dubai Marina, Dubai",
  "",
  "Description                          Qty     Unit Price      Amount",
  "Chiller maintenance - March            1       8,500.00     8,500.00",
  "Deep cleaning of lobbies               3       1,200.00     3,600.00",
  "",
  "Subtotal / المجموع الفرعي: AED 12,100.00",
  "VAT 5% / ضريبة القيمة المضافة: AED 605.00",
  "Total / الإجمالي: AED 12,705.00",
].join('\n');

const CZ_INVOICE = [
  "Faktura č. 2026-0045",
  "",
  "Dodavatel:",
  "Novák Stavby s.r.o.",
  "Vinohradská 1200/45",
  "130 00 Praha 3",
  "IČO: 27654321",
  "DIČ: CZ27654321",
  "",
  "Odběratel:",
  "Kavárna U Mostu",
  "Mostecká 14, 118 00 Praha 1",
  "",
  "Datum vystavení: 3. března 2026",
  "Datum splatnosti: 17. března 2026",
  "",
  "Popis                              Množství   Cena za jednotku      Celkem",
  "Oprava podlahy                          1          9 500,00 Kč   9 500,00 Kč",
  "Malování stěn                          12            250,00 Kč   3 000,00 Kč",
  "",
  "Celkem bez DPH: 12 500,00 Kč",
  "DPH 21 %: 2 625,00 Kč",
  "Celkem k úhradě: 15 125,00 Kč",
].join('\n');

const DE_RECEIPT = [
  "Bäckerei Sonnenschein",
  "Marktplatz 3",
  "79098 Freiburg",
  "",
  "Datum: 14.03.2026   Uhrzeit: 08:42",
  "",
  "Roggenbrot                      4,20",
  "Butterbrezel 2 x 1,10           2,20",
  "Milchkaffee                     3,40",
  "",
  "Summe EUR                       9,80",
  "MwSt 7%                         0,64",
  "Gegeben Bar                    10,00",
  "Rückgeld                        0,20",
].join('\n');

const KR_RECEIPT = [
  "커피나무 성수점",
  "서울특별시 성동구 성수이로 77",
  "",
  "거래일시: 2026-03-14 15:20",
  "",
  "아메리카노           2    9,000",
  "카페라떼             1    5,500",
  "",
  "합계                    ₩14,500",
  "결제방법: 신용카드",
].join('\n');

const TH_RECEIPT = [
  "ร้านกาแฟบ้านสวน",
  "123 ถนนนิมมานเหมินท์ เชียงใหม่",
  "",
  "วันที่: 14/03/2569  เวลา 10:15",
  "",
  "ลาเต้เย็น                1    65.00",
  "ครัวซองต์               2   110.00",
  "",
  "รวมทั้งสิ้น            175.00 บาท",
  "ชำระโดย: เงินสด",
].join('\n');

const ZA_RECEIPT = [
  "KAROO FARM STALL",
  "N1 Highway, Laingsburg",
  "",
  "Date: 14/03/2026 12:05",
  "",
  "Biltong 500g                R 189,90",
  "Rooibos tea 80s              R 54,00",
  "Koeksisters x6               R 48,00",
  "",
  "TOTAL                       R 291,90",
  "VAT incl. 15%                R 38,07",
  "Card                        R 291,90",
].join('\n');

const SE_RECEIPT = [
  "Kafé Solrosen",
  "Storgatan 8, 753 20 Uppsala",
  "",
  "Datum: 2026-03-14 Tid: 11:32",
  "",
  "Kanelbulle 2 st      70,00",
  "Kaffe                45,00",
  "",
  "Att betala       115,00 kr",
  "Moms 12%          12,32 kr",
  "Betalningssätt: Kort",
].join('\n');

const DE_CONTRACT = [
  "DIENSTLEISTUNGSVERTRAG",
  "",
  "Auftraggeber: Stadtwerke Nordheim GmbH, Bahnhofstraße 4, 74226 Nordheim",
  "Auftragnehmer: Kraus IT-Service GmbH, Lindenweg 9, 70173 Stuttgart",
  "",
  "Vertragsbeginn: 1. April 2026",
  "Vertragsende: 31. März 2027",
  "Vergütung: 48.000,00 EUR",
  "Anwendbares Recht: Es gilt deutsches Recht.",
  "",
  "1. Leistungen. Der Auftragnehmer betreut die Server des Auftraggebers.",
  "",
  "2. Kündigung. Der Vertrag kann mit einer Frist von drei Monaten zum Quartalsende gekündigt werden.",
].join('\n');

const ES_CONTRACT = [
  "CONTRATO DE ARRENDAMIENTO DE LOCAL COMERCIAL",
  "",
  "Arrendador: Inmobiliaria Sol de Levante S.L.",
  "Arrendatario: Panadería La Espiga S.L.",
  "",
  "Fecha de inicio: 1 de abril de 2026",
  "Fecha de finalización: 31 de marzo de 2031",
  "Precio: 1.850,00 € mensuales",
  "Ley aplicable: legislación española",
  "",
  "Renovación",
  "El contrato se renueva automáticamente por periodos de un año salvo preaviso de dos meses.",
].join('\n');

const FR_MINUTES = [
  "Compte rendu – Comité de pilotage ERP",
  "",
  "Date : 12 mars 2026",
  "Participants : Claire Martin, Julien Petit, Sofia Moreau",
  "",
  "Ordre du jour",
  "- Avancement du déploiement",
  "- Budget du deuxième trimestre",
  "",
  "Décisions",
  "- Le démarrage en production est fixé au 4 mai 2026.",
  "",
  "Actions",
  "- Julien Petit : envoyer le planning de formation d'ici le 20 mars 2026",
  "- Sofia Moreau : valider les accès des utilisateurs",
  "",
  "Questions ouvertes",
  "- Faut-il prolonger le contrat de support ?",
].join('\n');

const PL_MINUTES = [
  "Protokół ze spotkania zespołu projektowego",
  "",
  "Data: 4 marca 2026",
  "Obecni: Anna Nowak, Piotr Zieliński, Marta Wójcik",
  "",
  "Ustalenia:",
  "- Przesuwamy wdrożenie na kwiecień.",
  "",
  "Zadania:",
  "- Anna Nowak – przygotować budżet do 20 marca 2026",
  "- Piotr Zieliński – zamówić serwery",
  "",
  "Otwarte kwestie:",
  "- Czy potrzebujemy dodatkowego testera?",
].join('\n');

const ES_JOB = [
  "Ingeniero de Datos Sr.",
  "",
  "Empresa: Grupo Financiero Altavista",
  "Ubicación: Ciudad de México",
  "Tipo de contrato: Tiempo completo",
  "Modalidad: Híbrido",
  "Salario: $45,000 - $55,000 MXN mensuales",
  "",
  "Responsabilidades",
  "- Diseñar y mantener pipelines de datos",
  "- Colaborar con el equipo de analítica",
  "",
  "Requisitos",
  "- 5 años de experiencia con Python y SQL",
  "- Inglés avanzado",
  "",
  "Ofrecemos",
  "- Seguro de gastos médicos mayores",
  "- Vales de despensa",
].join('\n');

const DE_JOB = [
  "Senior Backend-Entwickler (m/w/d)",
  "",
  "Unternehmen: Nordlicht Software GmbH",
  "Standort: Hamburg",
  "Anstellungsart: Vollzeit, unbefristet",
  "Gehalt: 65.000 – 75.000 € brutto/Jahr",
  "",
  "Ihre Aufgaben",
  "- Entwicklung von Microservices in Go",
  "- Betreuung der Kubernetes-Plattform",
  "",
  "Ihr Profil",
  "- Mehrjährige Erfahrung mit verteilten Systemen",
  "- Sehr gute Deutschkenntnisse",
  "",
  "Wir bieten",
  "- 30 Tage Urlaub",
  "- Jobticket",
].join('\n');

const PL_JOB = [
  "Programista Java",
  "",
  "Firma: Bałtyk Systems Sp. z o.o.",
  "Lokalizacja: Gdańsk",
  "Forma zatrudnienia: kontrakt B2B",
  "Wynagrodzenie: 18 000 – 24 000 zł netto/mies.",
  "",
  "Obowiązki",
  "- Rozwój systemu rezerwacji",
  "- Code review",
  "",
  "Wymagania",
  "- 4 lata doświadczenia z Javą",
  "",
  "Oferujemy",
  "- Prywatna opieka medyczna",
].join('\n');

const DE_RENEWAL = [
  "Cloudhafen GmbH",
  "Kundenservice",
  "",
  "Ihre Verlängerung von Cloudhafen Business",
  "",
  "Sehr geehrte Damen und Herren,",
  "",
  "Ihr Abonnement Cloudhafen Business (25 Nutzer) verlängert sich automatisch am 1. Juli 2026 um weitere zwölf Monate.",
  "Der Preis beträgt 6.000,00 EUR pro Jahr.",
  "Kündigungsfrist: 30 Tage vor Ablauf der Laufzeit.",
  "",
  "Mit freundlichen Grüßen",
  "Cloudhafen GmbH",
].join('\n');

describe('invoices', () => {
  it('Poland: FAKTURA VAT, Sprzedawca and Nabywca with NIP, a table with units, rates, tax and gross columns, Do zapłaty in zł', () => {
    expect(extractFixed('invoice', PL_INVOICE)).toEqual({
      invoiceNumber: 'FV/2026/03/114', issueDate: '2026-03-14', dueDate: '2026-03-28',
      vendor: { name: 'Zielona Energia Sp. z o.o.', address: 'ul. Przemysłowa 12, 61-001 Poznań', taxId: '7781234567' },
      customer: { name: 'Hotel Pod Lipami S.A.', address: 'ul. Długa 5, 80-831 Gdańsk', taxId: '5831122334' },
      lineItems: [
        { description: 'Falownik hybrydowy 5 kW', quantity: 1, unitPrice: 7800, amount: 7800 },
        { description: 'Montaż instalacji PV', quantity: 16, unitPrice: 150, amount: 2400 },
      ],
      subtotal: 10200, tax: 2346, total: 12546, currency: 'PLN',
    });
  });

  it('Japan: 請求書 with a 御中 customer, 年月日 dates, yen without decimals, 小計 / 消費税 / 合計', () => {
    const data = extractFixed('invoice', JP_INVOICE);
    expect(data).toMatchObject({ invoiceNumber: 'INV-2026-0311', issueDate: '2026-03-14', dueDate: '2026-04-30', subtotal: 286000, tax: 28600, total: 314600, currency: 'JPY' });
    expect(data.vendor.name).toBeNull(); // the title 請求書 names no vendor
    expect(data.customer.name).toBe('株式会社サクラ商事');
    expect(data.lineItems).toEqual([
      { description: 'ウェブサイト保守', quantity: 1, unitPrice: 200000, amount: 200000 },
      { description: 'サーバー費用', quantity: 4, unitPrice: 21500, amount: 86000 },
    ]);
  });

  it('Turkey: Fatura No, Vade Tarihi, Sayın, KDV, Genel Toplam in ₺ with dot thousands', () => {
    expect(extractFixed('invoice', TR_INVOICE)).toMatchObject({
      invoiceNumber: 'ANY2026000145', issueDate: '2026-03-14', dueDate: '2026-04-13',
      vendor: { name: 'ANADOLU YAZILIM A.Ş.', taxId: '1234567890' }, customer: { name: 'Ege Tekstil Ltd. Şti.' },
      lineItems: [
        { description: 'Yazılım lisansı (yıllık)', quantity: 10, unitPrice: 1250, amount: 12500 },
        { description: 'Kurulum hizmeti', quantity: 1, unitPrice: 3000, amount: 3000 },
      ],
      subtotal: 15500, tax: 3100, total: 18600, currency: 'TRY',
    });
  });

  it('UAE: labels in English and Arabic, a TRN, AED', () => {
    expect(extractFixed('invoice', AE_INVOICE)).toMatchObject({
      invoiceNumber: 'FFM-2026-0412', issueDate: '2026-03-14', dueDate: null,
      vendor: { name: 'FALCON FACILITIES MANAGEMENT L.L.C', taxId: '100234567800003' }, customer: { name: 'Marina Heights Owners Association' },
      subtotal: 12100, tax: 605, total: 12705, currency: 'AED',
    });
  });

  it('Czechia: Faktura č., Dodavatel with IČO, dates with month names, Celkem k úhradě in Kč with space thousands', () => {
    expect(extractFixed('invoice', CZ_INVOICE)).toMatchObject({
      invoiceNumber: '2026-0045', issueDate: '2026-03-03', dueDate: '2026-03-17',
      vendor: { name: 'Novák Stavby s.r.o.', address: 'Vinohradská 1200/45, 130 00 Praha 3' }, customer: { name: 'Kavárna U Mostu' },
      lineItems: [
        { description: 'Oprava podlahy', quantity: 1, unitPrice: 9500, amount: 9500 },
        { description: 'Malování stěn', quantity: 12, unitPrice: 250, amount: 3000 },
      ],
      subtotal: 12500, tax: 2625, total: 15125, currency: 'CZK',
    });
  });
});

describe('receipts', () => {
  it('Germany: Summe EUR, MwSt, Gegeben Bar', () => {
    expect(extractFixed('receipt', DE_RECEIPT)).toMatchObject({
      merchant: 'Bäckerei Sonnenschein', date: '2026-03-14', time: '08:42', total: 9.8, tax: 0.64, currency: 'EUR', paymentMethod: 'Bar',
      items: [{ description: 'Roggenbrot', amount: 4.2 }, { description: 'Butterbrezel', quantity: 2, unitPrice: 1.1, amount: 2.2 }, { description: 'Milchkaffee', amount: 3.4 }],
    });
  });

  it('Korea: won without decimals, 합계, 결제방법', () => {
    expect(extractFixed('receipt', KR_RECEIPT)).toMatchObject({
      merchant: '커피나무 성수점', date: '2026-03-14', time: '15:20', total: 14500, currency: 'KRW', paymentMethod: '신용카드',
      items: [{ description: '아메리카노', quantity: 2, unitPrice: 4500, amount: 9000 }, { description: '카페라떼', quantity: 1, amount: 5500 }],
    });
  });

  it('Thailand: a Buddhist-era date, Thai vowel marks in labels, บาท', () => {
    expect(extractFixed('receipt', TH_RECEIPT)).toMatchObject({
      merchant: 'ร้านกาแฟบ้านสวน', date: '2026-03-14', time: '10:15', total: 175, currency: 'THB', paymentMethod: 'เงินสด',
    });
  });

  it('South Africa: R before every figure, decimal commas; the figures are a column, not a block beside the names', () => {
    expect(extractFixed('receipt', ZA_RECEIPT)).toMatchObject({
      merchant: 'KAROO FARM STALL', date: '2026-03-14', total: 291.9, currency: 'ZAR', paymentMethod: 'Card',
      items: [{ description: 'Biltong 500g', amount: 189.9 }, { description: 'Rooibos tea 80s', amount: 54 }, { description: 'Koeksisters x6', amount: 48 }],
    });
  });

  it('Sweden: Att betala, Moms, kr read as the krona by the document\'s language', () => {
    expect(extractFixed('receipt', SE_RECEIPT)).toMatchObject({
      merchant: 'Kafé Solrosen', date: '2026-03-14', time: '11:32', total: 115, tax: 12.32, currency: 'SEK', paymentMethod: 'Kort',
      items: [{ description: 'Kanelbulle', quantity: 2, amount: 70 }, { description: 'Kaffe', amount: 45 }],
    });
  });
});

describe('contracts', () => {
  it('Germany: Auftraggeber and Auftragnehmer, Vertragsbeginn and Vertragsende, deutsches Recht, a Kündigung section', () => {
    expect(extractFixed('contract', DE_CONTRACT)).toMatchObject({
      title: 'DIENSTLEISTUNGSVERTRAG',
      parties: [{ name: 'Stadtwerke Nordheim GmbH', role: 'Auftraggeber' }, { name: 'Kraus IT-Service GmbH', role: 'Auftragnehmer' }],
      effectiveDate: '2026-04-01', expirationDate: '2027-03-31', governingLaw: 'Germany', totalValue: 48000, currency: 'EUR',
      terminationClauses: ['Der Vertrag kann mit einer Frist von drei Monaten zum Quartalsende gekündigt werden.'],
    });
  });

  it('Spain: Arrendador and Arrendatario, legislación española; a monthly rent is no total value', () => {
    expect(extractFixed('contract', ES_CONTRACT)).toMatchObject({
      title: 'CONTRATO DE ARRENDAMIENTO DE LOCAL COMERCIAL',
      parties: [{ name: 'Inmobiliaria Sol de Levante S.L.', role: 'Arrendador' }, { name: 'Panadería La Espiga S.L.', role: 'Arrendatario' }],
      effectiveDate: '2026-04-01', expirationDate: '2031-03-31', governingLaw: 'Spain', totalValue: null,
      renewalClauses: ['El contrato se renueva automáticamente por periodos de un año salvo preaviso de dos meses.'],
    });
  });
});

describe('meeting notes', () => {
  it('France: Compte rendu, Participants, Ordre du jour, Décisions, Actions due d\'ici le, Questions ouvertes', () => {
    expect(extractFixed('meeting-notes', FR_MINUTES)).toEqual({
      title: 'Compte rendu – Comité de pilotage ERP', date: '2026-03-12', attendees: ['Claire Martin', 'Julien Petit', 'Sofia Moreau'],
      topicsDiscussed: ['Avancement du déploiement', 'Budget du deuxième trimestre'],
      decisions: ['Le démarrage en production est fixé au 4 mai 2026.'],
      actionItems: [
        { owner: 'Julien Petit', task: 'envoyer le planning de formation', dueDate: '2026-03-20' },
        { owner: 'Sofia Moreau', task: 'valider les accès des utilisateurs', dueDate: null },
      ],
      openQuestions: ['Faut-il prolonger le contrat de support ?'],
    });
  });

  it('Poland: Obecni, Ustalenia, Zadania due do, Otwarte kwestie', () => {
    expect(extractFixed('meeting-notes', PL_MINUTES)).toMatchObject({
      date: '2026-03-04', attendees: ['Anna Nowak', 'Piotr Zieliński', 'Marta Wójcik'], decisions: ['Przesuwamy wdrożenie na kwiecień.'],
      actionItems: [{ owner: 'Anna Nowak', task: 'przygotować budżet', dueDate: '2026-03-20' }, { owner: 'Piotr Zieliński', task: 'zamówić serwery', dueDate: null }],
      openQuestions: ['Czy potrzebujemy dodatkowego testera?'],
    });
  });
});

describe('job postings', () => {
  it('Mexico: Puesto labels, a peso range per month, Híbrido as not remote, Requisitos / Responsabilidades / Ofrecemos', () => {
    expect(extractFixed('job-posting', ES_JOB)).toMatchObject({
      title: 'Ingeniero de Datos Sr.', company: 'Grupo Financiero Altavista', location: 'Ciudad de México', employmentType: 'full_time',
      salaryRange: { min: 45000, max: 55000, currency: 'MXN', period: 'month' }, remote: false,
      requirements: ['5 años de experiencia con Python y SQL', 'Inglés avanzado'],
      responsibilities: ['Diseñar y mantener pipelines de datos', 'Colaborar con el equipo de analítica'],
      benefits: ['Seguro de gastos médicos mayores', 'Vales de despensa'],
    });
  });

  it('Germany: Vollzeit, unbefristet (never temporary), brutto/Jahr, Ihre Aufgaben / Ihr Profil / Wir bieten', () => {
    expect(extractFixed('job-posting', DE_JOB)).toMatchObject({
      company: 'Nordlicht Software GmbH', location: 'Hamburg', employmentType: 'full_time', salaryRange: { min: 65000, max: 75000, currency: 'EUR', period: 'year' },
      requirements: ['Mehrjährige Erfahrung mit verteilten Systemen', 'Sehr gute Deutschkenntnisse'], benefits: ['30 Tage Urlaub', 'Jobticket'],
    });
  });

  it('Poland: kontrakt B2B, zł netto/mies., Obowiązki / Wymagania / Oferujemy', () => {
    expect(extractFixed('job-posting', PL_JOB)).toMatchObject({
      title: 'Programista Java', company: 'Bałtyk Systems Sp. z o.o.', location: 'Gdańsk', employmentType: 'contract',
      salaryRange: { min: 18000, max: 24000, currency: 'PLN', period: 'month' }, responsibilities: ['Rozwój systemu rezerwacji', 'Code review'],
    });
  });
});

describe('renewal terms', () => {
  it('Germany: verlängert sich automatisch am 1. Juli, Kündigungsfrist in Tagen, Preis pro Jahr, Nutzer', () => {
    const data = extractFixed('renewal', DE_RENEWAL);
    expect(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'value' in v ? v.value : v]))).toMatchObject({
      documentKindGuess: 'renewal_notice', vendorName: 'Cloudhafen GmbH', product: 'Cloudhafen Business', billingAmount: 6000, currency: 'EUR',
      billingFrequency: 'annual', seatCount: 25, renewalDate: '2026-07-01', noticePeriodDays: 30, autoRenewal: true,
    });
    expect(data.autoRenewalLanguage.value).toBe('Ihr Abonnement Cloudhafen Business (25 Nutzer) verlängert sich automatisch am 1. Juli 2026 um weitere zwölf Monate.');
  });

  it('reads a notice stated in months as words only, its days left empty', () => {
    const data = extractFixed('renewal', 'Abonnement Nuvola Pro\nVotre abonnement Nuvola Pro se renouvelle automatiquement le 1er septembre 2026.\nPréavis : 3 mois avant l\'échéance.');
    expect(data.noticePeriodDays.value).toBeNull();
    expect(data.noticePeriodText.value).toBe('3 mois avant l\'échéance.');
    expect(data.renewalDate.value).toBe('2026-09-01');
  });
});
