import { useId } from 'react';
import type { Facets, Kind, Origin } from '../../../../main/ui-api/contract';
import { KIND_LABEL, KINDS, ORIGIN_LABEL, ORIGINS, scopeLabel } from '../../lib/vocabulary';

export interface Filters {
  scope: string;
  kind: Kind | '';
  origin: Origin | '';
  tag: string;
  host: string;
}

export const NO_FILTERS: Filters = { scope: '', kind: '', origin: '', tag: '', host: '' };

export function activeFilterCount(filters: Filters): number {
  return Object.values(filters).filter((v) => v !== '').length;
}

interface Props {
  filters: Filters;
  onChange(filters: Filters): void;
  facets: Facets | undefined;
}

/** Filters combine: every one that is set must match. */
export function MemoryFilters({ filters, onChange, facets }: Props) {
  const id = useId();
  const set = <K extends keyof Filters>(key: K, value: Filters[K]): void => onChange({ ...filters, [key]: value });
  const scopes = facets?.scopes ?? [];
  const hosts = facets?.hosts ?? [];
  return (
    <div className="filters" role="group" aria-label="Filters">
      <select aria-label="Scope" value={filters.scope} onChange={(e) => set('scope', e.target.value)} className={filters.scope !== '' ? 'filter-on' : ''}>
        <option value="">Any scope</option>
        {(scopes.includes(filters.scope) || filters.scope === '' ? scopes : [filters.scope, ...scopes]).map((s) => (
          <option key={s} value={s}>
            {scopeLabel(s)}
          </option>
        ))}
      </select>
      <select aria-label="Kind" value={filters.kind} onChange={(e) => set('kind', e.target.value as Kind | '')} className={filters.kind !== '' ? 'filter-on' : ''}>
        <option value="">Any kind</option>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABEL[k]}
          </option>
        ))}
      </select>
      <select aria-label="Origin" value={filters.origin} onChange={(e) => set('origin', e.target.value as Origin | '')} className={filters.origin !== '' ? 'filter-on' : ''}>
        <option value="">Any origin</option>
        {ORIGINS.map((o) => (
          <option key={o} value={o}>
            {ORIGIN_LABEL[o]}
          </option>
        ))}
      </select>
      <input
        aria-label="Tag"
        type="text"
        list={`${id}-tags`}
        placeholder="Any tag"
        value={filters.tag}
        onChange={(e) => set('tag', e.target.value.trim())}
        className={`filter-tag${filters.tag !== '' ? ' filter-on' : ''}`}
      />
      <datalist id={`${id}-tags`}>
        {(facets?.tags ?? []).slice(0, 500).map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <select aria-label="Host" value={filters.host} onChange={(e) => set('host', e.target.value)} className={filters.host !== '' ? 'filter-on' : ''}>
        <option value="">Any host</option>
        {(hosts.includes(filters.host) || filters.host === '' ? hosts : [filters.host, ...hosts]).map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </select>
      {activeFilterCount(filters) > 0 && (
        <button type="button" className="btn btn-small btn-quiet" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      )}
    </div>
  );
}
