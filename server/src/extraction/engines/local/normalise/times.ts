// Times of day as 24-hour HH:MM.

export function parseTime(s: string): string | null {
  const re = /\b([01]?\d|2[0-3])[:.h]([0-5]\d)(?::[0-5]\d)?\s*(a\.?m\.?|p\.?m\.?)?(?![\d.,])/giu;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    // `12.50` preceded by a currency sign is money, not a time.
    const before = s.slice(Math.max(0, m.index - 2), m.index);
    if (/[$€£¥]\s*$/u.test(before)) continue;
    if (m[1] && m[0].includes('.') && !m[3]) continue;
    let h = Number(m[1]);
    const meridiem = m[3]?.toLowerCase().replace(/\./g, '');
    if (meridiem) {
      if (h < 1 || h > 12) continue;
      if (meridiem === 'pm' && h !== 12) h += 12;
      if (meridiem === 'am' && h === 12) h = 0;
    }
    return `${String(h).padStart(2, '0')}:${m[2]}`;
  }
  return null;
}
