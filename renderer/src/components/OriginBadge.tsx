import type { Origin } from '../../../main/ui-api/contract';
import { isUntrusted, ORIGIN_LABEL, ORIGIN_MEANING } from '../lib/vocabulary';
import { Icon } from './Icon';

/** Text first, colour second: the badge must read correctly without colour vision. */
export function OriginBadge({ origin, compact = false }: { origin: Origin; compact?: boolean }) {
  const untrusted = isUntrusted(origin);
  return (
    <span className={`origin origin-${origin}${untrusted ? ' origin-untrusted' : ''}`} title={`Origin: ${ORIGIN_LABEL[origin]}. ${ORIGIN_MEANING[origin]}`} data-origin={origin}>
      {untrusted && <Icon name="warning" />}
      <span className="origin-label">{ORIGIN_LABEL[origin]}</span>
      {untrusted && !compact && <span className="origin-untrusted-label">untrusted</span>}
    </span>
  );
}
