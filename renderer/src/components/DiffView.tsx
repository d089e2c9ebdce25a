import { useMemo } from 'react';
import { wordDiff } from '../lib/diff';

/** Removed words struck through, added words marked; both also named for screen readers. */
export function DiffView({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => wordDiff(before, after), [before, after]);
  return (
    <div className="diff memory-text" aria-label="Changes to the current text">
      {parts.map((part, i) =>
        part.kind === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === 'added' ? (
          <ins key={i} className="diff-added" aria-label={`added: ${part.text}`}>
            {part.text}
          </ins>
        ) : (
          <del key={i} className="diff-removed" aria-label={`removed: ${part.text}`}>
            {part.text}
          </del>
        ),
      )}
    </div>
  );
}
