import { useNow } from '../hooks/useNow';
import { exactTime, parseDate, relativeTime } from '../lib/relative-time';

export function RelativeTime({ value, prefix = '' }: { value: string | number | null | undefined; prefix?: string }) {
  // The shared clock ticks every 30 s; a date written since the last tick must not read as future.
  const now = Math.max(useNow(), Date.now());
  const date = parseDate(value);
  if (date === null) return <span className="muted">—</span>;
  return (
    <time dateTime={date.toISOString()} title={exactTime(date)}>
      {prefix}
      {relativeTime(date, now)}
    </time>
  );
}
