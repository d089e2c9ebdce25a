import { useState } from 'react';
import type { Memory, MemoryRevision } from '../../../../main/ui-api/contract';
import { DiffView } from '../../components/DiffView';
import { Icon } from '../../components/Icon';
import { OriginBadge } from '../../components/OriginBadge';
import { RelativeTime } from '../../components/RelativeTime';
import { KIND_LABEL, scopeLabel } from '../../lib/vocabulary';

const ACTION_LABEL: Record<MemoryRevision['action'], string> = {
  create: 'created',
  update: 'edited',
  forget: 'forgotten',
  restore: 'restored',
};

/**
 * Audit actors in words, short enough for a table column: `window` → you, `mcp:<host>:<connection>`
 * → agent (host), `hook:<host>` → hook (host). The raw actor goes in a title for the details.
 */
export function actorLabel(actor: string): string {
  if (actor === 'window') return 'you';
  const [channel, host] = actor.split(':');
  if (channel === 'mcp') return `agent (${host || 'unnamed host'})`;
  if (channel === 'hook') return `hook (${host || 'unnamed host'})`;
  return actor;
}

interface Props {
  memory: Memory;
  revisions: MemoryRevision[];
  busy: boolean;
  onRestore(revision: number): void;
}

/** Newest first; each revision can show what it changed and be made current again. */
export function RevisionHistory({ memory, revisions, busy, onRestore }: Props) {
  const [open, setOpen] = useState<number | null>(null);
  const ordered = [...revisions].sort((a, b) => b.revision - a.revision);
  return (
    <ol className="history" aria-label="Revision history">
      {ordered.map((rev, i) => {
        const previous = ordered[i + 1];
        const isCurrent = rev.revision === memory.revision;
        const expanded = open === rev.revision;
        const changed = previous !== undefined && previous.content !== rev.content;
        const canRestore = !isCurrent && memory.deleted_at === null && rev.action !== 'forget' && rev.content !== memory.content;
        return (
          <li key={rev.revision} className={`history-item${isCurrent ? ' history-current' : ''}`}>
            <div className="history-head">
              <span className="history-rev">rev {rev.revision}</span>
              <span>
                {ACTION_LABEL[rev.action]} by <span title={rev.actor}>{actorLabel(rev.actor)}</span>
              </span>
              <RelativeTime value={rev.created_at} />
              <OriginBadge origin={rev.origin} compact />
              {isCurrent && <span className="pill">current</span>}
            </div>
            {(!isCurrent || changed || canRestore) && (
            <div className="history-actions">
              {/* The current text is already on screen above; only what it changed is worth showing. */}
              {(!isCurrent || changed) && (
                <button type="button" className="btn btn-small btn-quiet" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : rev.revision)}>
                  {expanded ? (changed ? 'Hide changes' : 'Hide text') : changed ? 'Show changes' : 'Show text'}
                </button>
              )}
              {canRestore && (
                <button type="button" className="btn btn-small" disabled={busy} onClick={() => onRestore(rev.revision)}>
                  <Icon name="restore" />
                  Restore this revision
                </button>
              )}
            </div>
            )}
            {expanded && (
              <div className="history-body">
                {changed && previous !== undefined ? <DiffView before={previous.content} after={rev.content} /> : <p className="memory-text">{rev.content}</p>}
                <p className="muted small">
                  {KIND_LABEL[rev.kind]} · {scopeLabel(rev.scope)}
                  {rev.tags.length > 0 && ` · #${rev.tags.join(' #')}`}
                  {rev.consent !== null && (
                    <>
                      {' '}
                      · consent <span className="mono">{rev.consent}</span>
                    </>
                  )}
                </p>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
