import { useNow } from '../hooks/useNow';
import { exactTime, parseDate, relativeTime } from '../lib/relative-time';

export function RelativeTime({ value, prefix = '' }: { value: string | number | null | undefined; prefix?: string }) {
  const now = useNow();
  const date = parseDate(value);
  if (date === null) return <span className="muted">—</span>;
  return (
    <time dateTime={date.toISOString()} title={exactTime(date)}>
      {prefix}
      {relativeTime(date, now)}
    </time>
  );
}
