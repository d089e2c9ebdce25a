import type { Memory } from '../../../../main/ui-api/contract';
import { DiffView } from '../../components/DiffView';
import { Icon } from '../../components/Icon';
import { useShortcuts } from '../../hooks/useShortcuts';

interface Props {
  current: Memory;
  baseRevision: number;
  mine: string;
  busy: boolean;
  onApplyMine(): void;
  onKeepEditing(): void;
  onDiscard(): void;
}

/**
 * A revision conflict is shown, never resolved silently: the person sees the text that is there
 * now and decides whether their edit still applies.
 */
export function ConflictPanel({ current, baseRevision, mine, busy, onApplyMine, onKeepEditing, onDiscard }: Props) {
  useShortcuts({ Escape: onDiscard });
  return (
    <div className="conflict" role="alert" data-testid="revision-conflict">
      <p className="conflict-title">
        <Icon name="warning" />
        This memory changed while you were editing it.
      </p>
      <p>
        You started from revision {baseRevision}; it is now at revision {current.revision}. Nothing was overwritten.
      </p>
      <h3 className="section-title">Current text (revision {current.revision})</h3>
      <p className="memory-text conflict-current">{current.content}</p>
      <h3 className="section-title">Your edit compared with it</h3>
      <DiffView before={current.content} after={mine} />
      <div className="editor-actions">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onApplyMine}>
          Replace with my edit (revision {current.revision + 1})
        </button>
        <button type="button" className="btn" onClick={onKeepEditing}>
          Keep editing
        </button>
        <button type="button" className="btn" onClick={onDiscard}>
          Discard my edit
        </button>
      </div>
    </div>
  );
}
