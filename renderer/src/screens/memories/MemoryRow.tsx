import type { Memory } from '../../../../main/ui-api/contract';
import { OriginBadge } from '../../components/OriginBadge';
import { RelativeTime } from '../../components/RelativeTime';
import { KIND_LABEL, scopeLabel } from '../../lib/vocabulary';

export const ROW_HEIGHT = 76;

interface Props {
  index: number;
  memory: Memory | undefined;
  /** How many rows are fetched, to say how far along loading is. */
  loaded: number;
  /** Rows in the whole list; only a window of them is in the DOM, so each row states it. */
  total: number;
  selected: boolean;
  onSelect(index: number): void;
}

export function MemoryRow({ index, memory, loaded, total, selected, onSelect }: Props) {
  if (memory === undefined) {
    return (
      <div className={`mrow mrow-placeholder${selected ? ' mrow-selected' : ''}`} role="option" aria-selected={selected} aria-posinset={index + 1} aria-setsize={total} id={`memory-row-${index}`}>
        <span className="muted">
          Loading row {(index + 1).toLocaleString()}… ({loaded.toLocaleString()} fetched so far; pages load in order)
        </span>
      </div>
    );
  }
  return (
    <div
      className={`mrow${selected ? ' mrow-selected' : ''}`}
      role="option"
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={total}
      id={`memory-row-${index}`}
      data-memory-id={memory.id}
      onClick={() => onSelect(index)}
    >
      {/* Only the start of long memories goes into the row; the detail pane has the rest. */}
      <div className="mrow-text">{memory.content.length > 400 ? memory.content.slice(0, 400) : memory.content}</div>
      <div className="mrow-meta">
        <OriginBadge origin={memory.origin} compact />
        <span className="mrow-kind">{KIND_LABEL[memory.kind]}</span>
        <span className="mrow-scope">{scopeLabel(memory.scope)}</span>
        {memory.tags.length > 0 && <span className="mrow-tags">#{memory.tags.slice(0, 3).join(' #')}</span>}
        <span className="mrow-time">
          <RelativeTime value={memory.deleted_at ?? memory.updated_at} prefix={memory.deleted_at !== null ? 'forgotten ' : ''} />
        </span>
      </div>
    </div>
  );
}
