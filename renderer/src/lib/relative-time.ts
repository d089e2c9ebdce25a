/** Dates from the service are ISO strings; older rows may carry epoch milliseconds. */
export function parseDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'number' || /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "3 min ago", "in 12 min", "yesterday", "5 days ago", then a short date. */
export function relativeTime(date: Date, now: number): string {
  const diff = now - date.getTime();
  const future = diff < 0;
  const abs = Math.abs(diff);
  const say = (amount: number, unit: string): string => (future ? `in ${amount} ${unit}` : `${amount} ${unit} ago`);
  if (abs < 45_000) return future ? 'in a moment' : 'just now';
  if (abs < HOUR) return say(Math.max(1, Math.round(abs / MINUTE)), 'min');
  if (abs < DAY) return say(Math.round(abs / HOUR), 'h');
  if (abs < 2 * DAY) return future ? 'tomorrow' : 'yesterday';
  if (abs < 30 * DAY) return say(Math.round(abs / DAY), 'days');
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
}

export function exactTime(date: Date): string {
  return `${date.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'medium' })} (${date.toISOString()})`;
}
