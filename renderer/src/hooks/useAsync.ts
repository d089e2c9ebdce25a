import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../main/ui-api/contract';
import { toApiError } from '../api/api-error';

export interface AsyncState<T> {
  data: T | undefined;
  error: ApiError | null;
  /** True only while nothing has loaded yet; reloads keep showing the previous data. */
  loading: boolean;
  reload(): void;
}

/** Loads once per change of `deps`; `reload` re-runs it. Late answers to old requests are dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const latest = useRef(load);
  latest.current = load;

  const run = useCallback(() => {
    const mine = ++generation.current;
    latest.current().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (thrown: unknown) => {
        if (mine !== generation.current) return;
        setError(toApiError(thrown));
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => {
    setLoading(true);
    run();
    // The caller owns the dependency list, like useEffect itself.
  }, deps);

  return { data, error, loading: loading && data === undefined, reload: run };
}
