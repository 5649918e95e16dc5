/** UTC midnight (epoch ms) of a calendar day; null when the day does not exist (e.g. 2024-02-30). */
export function utcDay(year: number, month: number, day: number): number | null {
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  const real =
    check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
  return real ? ms : null;
}

/** UTC midnight of a `YYYY-MM-DD` day; null for other text or days that do not exist. */
export function parseIsoDay(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  return match ? utcDay(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}
