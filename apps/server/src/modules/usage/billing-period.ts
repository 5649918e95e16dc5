/** A billing period starts on the day of month the account was created (clamped to short months). */
export function billingPeriod(anchor: Date, now: number, which: "current" | "previous") {
  const at = new Date(now);
  const anchorDay = anchor.getUTCDate();
  const startIn = (year: number, month: number) => {
    const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return Date.UTC(year, month, Math.min(anchorDay, last));
  };
  let year = at.getUTCFullYear();
  let month = at.getUTCMonth();
  if (startIn(year, month) > now) month -= 1;
  if (which === "previous") month -= 1;
  const start = startIn(year, month);
  const first = new Date(start);
  year = first.getUTCFullYear();
  month = first.getUTCMonth();
  const end = startIn(year, month + 1) - 1;
  return { start, end };
}
