import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError, Memory, MemoryQuery } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi } from '../../api/ApiContext';

/** Small first page for a fast first paint; later pages as large as the service allows. */
export const PAGE_SIZE = 100;
const LATER_PAGE_SIZE = 200;
/** A live refresh reloads at most this many rows up front; the rest load again as they scroll in. */
const REFRESH_CAP = 400;

type Item = Memory & { score?: number };

export interface MemoryPages {
  /** Rows the list should have: the service's total, or what is loaded when it is smaller. */
  count: number;
  get(index: number): Item | undefined;
  /** Ask for rows up to `end` (exclusive); pages load one after another by cursor. */
  ensure(end: number): void;
  refresh(): void;
  /** First page not in yet. */
  loading: boolean;
  /** Rows fetched so far, for "loading" rows far down a long list. */
  loaded: number;
  error: ApiError | null;
  retry(): void;
}

interface Cursor {
  generation: number;
  items: Item[];
  /** A refresh fills this, then swaps it in, so the list never blanks out. */
  building: Item[] | null;
  buildTarget: number;
  cursor: string | null;
  done: boolean;
  inflight: boolean;
  want: number;
  total: number;
}

function fresh(generation: number, want: number): Cursor {
  return { generation, items: [], building: null, buildTarget: 0, cursor: null, done: false, inflight: false, want, total: 0 };
}

/**
 * Cursor paging behind the virtualised list. Only the pages the person scrolled to are fetched;
 * each answer is dropped if the query changed while it was in flight.
 */
export function useMemoryPages(query: MemoryQuery): MemoryPages {
  const api = useApi();
  const key = JSON.stringify(query);
  const state = useRef<Cursor>(fresh(0, PAGE_SIZE));
  const [, setVersion] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const queryRef = useRef(query);
  queryRef.current = query;

  const rerender = useCallback(() => setVersion((v) => v + 1), []);

  const pump = useCallback(() => {
    const s = state.current;
    const target = s.building !== null ? s.buildTarget : s.want;
    const have = s.building !== null ? s.building.length : s.items.length;
    if (s.inflight || s.done || have >= target) return;
    s.inflight = true;
    const generation = s.generation;
    // Each page costs the service about the same whatever its size, so later ones take the maximum.
    const params: MemoryQuery = { ...queryRef.current, limit: s.cursor === null ? PAGE_SIZE : LATER_PAGE_SIZE, ...(s.cursor !== null ? { cursor: s.cursor } : {}) };
    api.searchMemories(params).then(
      (page) => {
        const now = state.current;
        if (now.generation !== generation) return;
        now.inflight = false;
        if (now.building !== null) now.building.push(...page.items);
        else now.items.push(...page.items);
        now.cursor = page.next_cursor;
        now.done = page.next_cursor === null;
        const loaded = now.building !== null ? now.building.length : now.items.length;
        now.total = now.done ? loaded : Math.max(page.total, loaded);
        if (now.building !== null && (now.done || now.building.length >= now.buildTarget)) {
          now.items = now.building;
          now.building = null;
        }
        setLoading(false);
        setError(null);
        rerender();
        pump();
      },
      (thrown: unknown) => {
        const now = state.current;
        if (now.generation !== generation) return;
        now.inflight = false;
        if (now.building !== null) now.building = null;
        setLoading(false);
        setError(toApiError(thrown));
      },
    );
  }, [api, rerender]);

  useEffect(() => {
    state.current = fresh(state.current.generation + 1, PAGE_SIZE);
    setLoading(true);
    setError(null);
    rerender();
    pump();
  }, [key, pump, rerender]);

  const ensure = useCallback(
    (end: number) => {
      const s = state.current;
      // Fetch a little ahead so the next page is usually there before it scrolls in.
      const want = Math.ceil((end + LATER_PAGE_SIZE / 2) / PAGE_SIZE) * PAGE_SIZE;
      if (want > s.want) {
        s.want = want;
        pump();
      }
    },
    [pump],
  );

  const refresh = useCallback(() => {
    const previous = state.current;
    const next = fresh(previous.generation + 1, previous.want);
    next.items = previous.items;
    next.total = previous.total;
    next.building = [];
    next.buildTarget = Math.max(PAGE_SIZE, Math.min(previous.items.length, REFRESH_CAP));
    state.current = next;
    pump();
  }, [pump]);

  const retry = useCallback(() => {
    setError(null);
    pump();
  }, [pump]);

  const s = state.current;
  return {
    count: Math.max(s.total, s.items.length),
    loaded: s.items.length,
    get: (index) => s.items[index],
    ensure,
    refresh,
    loading,
    error,
    retry,
  };
}
