import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface VirtualListProps {
  count: number;
  /** Every row has exactly this height (px); that is what makes windowing O(visible rows). */
  rowHeight: number;
  renderRow(index: number): ReactNode;
  /** Called with the rows on screen (plus overscan) so the owner can load them. */
  onRangeChange?(start: number, end: number): void;
  /** Keeps this row in view when it changes (keyboard selection). */
  activeIndex?: number | null;
  onActiveChange?(index: number): void;
  overscan?: number;
  label: string;
  id?: string;
  /** DOM id of the active row, so screen readers follow the selection while focus stays on the list. */
  activeId?: string | undefined;
}

/**
 * A windowed list: one tall spacer for the scrollbar and only the visible rows in the DOM.
 * Rows are placed with a single transform on their wrapper, not one absolute position each.
 */
export function VirtualList({ count, rowHeight, renderRow, onRangeChange, activeIndex = null, onActiveChange, overscan = 6, label, id, activeId }: VirtualListProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(0);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (el === null) return;
    setHeight(el.clientHeight);
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // rAF-coalesced: one state update per frame however fast the wheel fires.
  const frame = useRef<number | null>(null);
  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (viewport.current !== null) setScrollTop(viewport.current.scrollTop);
    });
  }, []);
  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  useEffect(() => {
    const el = viewport.current;
    if (el === null || activeIndex === null || activeIndex < 0) return;
    const top = activeIndex * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  }, [activeIndex, rowHeight]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (onActiveChange === undefined || count === 0) return;
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const current = activeIndex ?? -1;
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onActiveChange(Math.max(0, Math.min(count - 1, next)));
  };

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(i));

  return (
    <div
      ref={viewport}
      id={id}
      className="vlist"
      role="listbox"
      aria-label={label}
      aria-activedescendant={activeId}
      tabIndex={0}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      data-testid="virtual-list"
    >
      <div className="vlist-spacer" style={{ height: count * rowHeight }}>
        <div className="vlist-window" style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
