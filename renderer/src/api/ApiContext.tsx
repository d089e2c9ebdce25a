import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { ApiEvent, NuzoApi } from '../../../main/ui-api/contract';
import type { ApiHandle } from './get-api';

/** Service events, plus `resync` after the event stream came back (events may have been missed). */
export type HubEvent = ApiEvent | { type: 'resync' };

interface ApiContextValue {
  api: NuzoApi;
  link: ApiHandle['link'];
  /** Fan-out of the one service subscription to every mounted listener. */
  listen(listener: (event: HubEvent) => void): () => void;
}

const ApiContext = createContext<ApiContextValue | null>(null);

export function ApiProvider({ handle, children }: { handle: ApiHandle; children: ReactNode }) {
  const listeners = useRef(new Set<(event: HubEvent) => void>());

  useEffect(() => {
    const emit = (event: HubEvent): void => {
      for (const listener of listeners.current) listener(event);
    };
    const unsubscribe = handle.api.subscribe(emit);
    let wasLost = false;
    const unlink = handle.link?.((state) => {
      if (state === 'lost') wasLost = true;
      if (state === 'open' && wasLost) {
        wasLost = false;
        emit({ type: 'resync' });
      }
    });
    return () => {
      unsubscribe();
      unlink?.();
    };
  }, [handle]);

  const value = useMemo<ApiContextValue>(
    () => ({
      api: handle.api,
      link: handle.link,
      listen(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [handle],
  );
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

function useApiContext(): ApiContextValue {
  const value = useContext(ApiContext);
  if (value === null) throw new Error('useApi outside ApiProvider');
  return value;
}

export function useApi(): NuzoApi {
  return useApiContext().api;
}

export function useLink(): ApiHandle['link'] {
  return useApiContext().link;
}

/** Calls the latest `handler` for each live event, without resubscribing on every render. */
export function useApiEvents(handler: (event: HubEvent) => void): void {
  const { listen } = useApiContext();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => listen((event) => latest.current(event)), [listen]);
}
