import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MemoryQuery } from '../../../../main/ui-api/contract';
import { useApi, useApiEvents } from '../../api/ApiContext';
import { Icon } from '../../components/Icon';
import { EmptyState, ErrorState, LoadingState } from '../../components/StateMessage';
import { VirtualList } from '../../components/VirtualList';
import { useAsync } from '../../hooks/useAsync';
import { useCoalesced } from '../../hooks/useCoalesced';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useShortcuts } from '../../hooks/useShortcuts';
import { activeFilterCount, MemoryFilters, NO_FILTERS, type Filters } from './MemoryFilters';
import { MemoryDetail } from './MemoryDetail';
import { MemoryRow, ROW_HEIGHT } from './MemoryRow';
import { NewMemory } from './NewMemory';
import { useMemoryPages } from './useMemoryPages';

type Sort = NonNullable<MemoryQuery['sort']>;
type View = 'live' | 'deleted';

interface Props {
  focusMemoryId: string | null;
  /** Incremented by the `/` key: focus the search box, then report back so a later visit does not. */
  searchRequest: number;
  onSearchFocused(): void;
  onOpenMemory(id: string): void;
}

export function MemoriesScreen({ focusMemoryId, searchRequest, onSearchFocused }: Props) {
  const api = useApi();
  const search = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim(), 120);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sortChoice, setSortChoice] = useState<Sort | 'auto'>('auto');
  const [view, setView] = useState<View>('live');
  const [selected, setSelected] = useState<number | null>(null);
  const [detailId, setDetailId] = useState<string | null>(focusMemoryId);
  const [creating, setCreating] = useState(false);
  const facets = useAsync(() => api.facets(), [api]);

  useEffect(() => {
    if (focusMemoryId !== null) {
      setDetailId(focusMemoryId);
      setCreating(false);
    }
  }, [focusMemoryId]);
  useEffect(() => {
    if (searchRequest > 0) {
      search.current?.focus();
      search.current?.select();
      onSearchFocused();
    }
  }, [searchRequest, onSearchFocused]);

  // Relevance only means something with a query; without one, newest changes first.
  const sort: Sort = sortChoice === 'auto' ? (query !== '' ? 'relevance' : 'updated') : sortChoice;
  const memoryQuery = useMemo<MemoryQuery>(
    () => ({
      query,
      state: view,
      sort,
      ...(filters.scope !== '' ? { scopes: [filters.scope] } : {}),
      ...(filters.kind !== '' ? { kinds: [filters.kind] } : {}),
      ...(filters.origin !== '' ? { origins: [filters.origin] } : {}),
      ...(filters.tag !== '' ? { tags: [filters.tag] } : {}),
      ...(filters.host !== '' ? { hosts: [filters.host] } : {}),
    }),
    [query, view, sort, filters],
  );
  const pages = useMemoryPages(memoryQuery);

  // A new query starts at the top with nothing selected.
  useEffect(() => setSelected(null), [memoryQuery]);

  const refresh = useCoalesced(() => {
    pages.refresh();
    facets.reload();
  }, 250);
  useApiEvents((event) => {
    if (event.type === 'memory.changed' || event.type === 'resync') refresh();
  });

  const select = useCallback(
    (index: number) => {
      if (pages.count === 0) return;
      const clamped = Math.max(0, Math.min(pages.count - 1, index));
      setSelected(clamped);
      setCreating(false);
      pages.ensure(clamped + 1);
      const memory = pages.get(clamped);
      if (memory !== undefined) setDetailId(memory.id);
    },
    [pages],
  );
  // A row selected before its page arrived opens once it is there.
  const selectedMemory = selected === null ? undefined : pages.get(selected);
  useEffect(() => {
    if (selectedMemory !== undefined) setDetailId(selectedMemory.id);
  }, [selectedMemory?.id]);

  useShortcuts({
    j: () => select(selected === null ? 0 : selected + 1),
    k: () => select(selected === null ? 0 : selected - 1),
    n: () => setCreating(true),
  });

  const onRange = useCallback((_start: number, end: number) => pages.ensure(end), [pages.ensure]);
  const scopes = useMemo(() => ['user', ...(facets.data?.scopes ?? []).filter((s) => s !== 'user')], [facets.data]);
  const counts = facets.data?.counts;
  const filtered = query !== '' || activeFilterCount(filters) > 0;

  let list;
  if (pages.loading) list = <LoadingState what="memories" />;
  else if (pages.error !== null && pages.count === 0) list = <ErrorState error={pages.error} what="memories" onRetry={pages.retry} />;
  else if (pages.count === 0)
    list =
      view === 'deleted' ? (
        <EmptyState title={filtered ? 'Nothing in the Trash matches.' : 'The Trash is empty.'}>
          <p>Forgotten memories land here and can be restored.</p>
        </EmptyState>
      ) : filtered ? (
        <EmptyState title="No memories match.">
          <p>Try fewer words, a word’s beginning (search matches prefixes), or clear the filters.</p>
        </EmptyState>
      ) : (
        <EmptyState title="No memories yet.">
          <p>Approve a draft in the Inbox, import a JSON Lines file in Settings, or press <kbd>n</kbd> to write one yourself.</p>
        </EmptyState>
      );
  else
    list = (
      <VirtualList
        label={view === 'deleted' ? 'Forgotten memories' : 'Memories'}
        count={pages.count}
        rowHeight={ROW_HEIGHT}
        activeIndex={selected}
        activeId={selected !== null ? `memory-row-${selected}` : undefined}
        onActiveChange={select}
        onRangeChange={onRange}
        renderRow={(index) => <MemoryRow key={index} index={index} memory={pages.get(index)} loaded={pages.loaded} total={pages.count} selected={index === selected} onSelect={select} />}
      />
    );

  return (
    <section className="screen screen-memories">
      <header className="screen-head screen-head-tools">
        {/* The Memories/Trash switch is the visible title; the heading stays for screen readers. */}
        <h1 className="sr-only">Memories</h1>
        <div className="segmented" role="group" aria-label="Show">
          <button type="button" aria-pressed={view === 'live'} onClick={() => setView('live')}>
            Memories{counts !== undefined ? ` ${counts.live.toLocaleString()}` : ''}
          </button>
          <button type="button" aria-pressed={view === 'deleted'} onClick={() => setView('deleted')}>
            <Icon name="trash" />
            Trash{counts !== undefined ? ` ${counts.deleted.toLocaleString()}` : ''}
          </button>
        </div>
        <div className="search">
          <Icon name="search" />
          <input
            ref={search}
            type="search"
            aria-label="Search memories"
            aria-keyshortcuts="/"
            placeholder="Search…"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              // Down from the search box goes straight into the results.
              if (e.key === 'ArrowDown' || (e.key === 'Enter' && pages.count > 0)) {
                e.preventDefault();
                select(selected ?? 0);
                document.querySelector<HTMLElement>('.vlist')?.focus();
              } else if (e.key === 'Escape' && text !== '') {
                e.stopPropagation();
                setText('');
              }
            }}
          />
          <kbd className="search-key">/</kbd>
        </div>
        <select aria-label="Sort" value={sortChoice} onChange={(e) => setSortChoice(e.target.value as Sort | 'auto')}>
          <option value="auto">{query !== '' ? 'Best match' : 'Last updated'}</option>
          <option value="relevance" disabled={query === ''}>
            Best match
          </option>
          <option value="updated">Last updated</option>
          <option value="created">Last created</option>
        </select>
        <button type="button" className="btn" onClick={() => setCreating(true)} aria-keyshortcuts="n">
          New <kbd>n</kbd>
        </button>
      </header>
      <MemoryFilters filters={filters} onChange={setFilters} facets={facets.data} />
      <div className="split">
        <div className="split-list">
          {pages.count > 0 && (
            <p className="list-count" aria-live="polite">
              {pages.count.toLocaleString()} {pages.count === 1 ? 'memory' : 'memories'}
              {filtered ? ' match' : ''}
            </p>
          )}
          {list}
        </div>
        <div className="split-detail">
          {creating ? (
            <NewMemory
              scopes={scopes}
              onDone={(id) => {
                setCreating(false);
                if (id !== null) setDetailId(id);
              }}
            />
          ) : detailId !== null ? (
            <MemoryDetail key={detailId} memoryId={detailId} scopes={scopes} active={!creating} />
          ) : (
            <EmptyState title="Select a memory to see where it came from and its history.">
              <p>
                <kbd>j</kbd>/<kbd>k</kbd> move through the list, <kbd>/</kbd> searches, <kbd>e</kbd> edits the selected memory.
              </p>
            </EmptyState>
          )}
        </div>
      </div>
    </section>
  );
}
