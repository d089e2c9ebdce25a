import { useCallback, useEffect, useRef } from 'react';

/**
 * Returns a trigger that runs `fn` once per `ms` however often it is called: live events come in
 * bursts (an import, a busy agent) and each screen only needs to reload once per burst.
 */
export function useCoalesced(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  }, [ms]);
}
