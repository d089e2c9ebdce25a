import type { OfferView } from '../../../../main/ui-api/contract';
import { DiffView } from '../../components/DiffView';
import { OriginBadge } from '../../components/OriginBadge';
import { TagList } from '../../components/TagList';
import { KIND_LABEL, scopeLabel } from '../../lib/vocabulary';

/** What would be written: the text, a diff for an update, or the memory a forget would remove. */
export function OfferBody({ draft }: { draft: OfferView['draft'] }) {
  const { current } = draft;
  if (draft.action === 'forget') {
    return (
      <div className="offer-forget">
        <p className="offer-forget-lead">The agent asks to forget this memory. Forgotten memories go to the Trash and can be restored.</p>
        <p className="memory-text">{current?.content ?? draft.content}</p>
        <TagList tags={current?.tags ?? draft.tags} />
        <p className="offer-forget-meta meta">
          The memory’s origin: <OriginBadge origin={current?.origin ?? draft.origin} compact />
          {current !== null && <> · revision {current.revision}</>}
        </p>
      </div>
    );
  }
  if (draft.action === 'update' && current !== null) {
    const changes: string[] = [];
    if (current.kind !== draft.kind) changes.push(`kind ${KIND_LABEL[current.kind]} → ${KIND_LABEL[draft.kind]}`);
    if (current.scope !== draft.scope) changes.push(`scope ${scopeLabel(current.scope)} → ${scopeLabel(draft.scope)}`);
    if (current.tags.join('\u0000') !== draft.tags.join('\u0000')) changes.push(`tags ${current.tags.join(', ') || 'none'} → ${draft.tags.join(', ') || 'none'}`);
    return (
      <div className="offer-update">
        <p className="offer-sub">
          Changes to revision {current.revision}
          {current.content === draft.content ? ' (text unchanged)' : ''}:
        </p>
        <DiffView before={current.content} after={draft.content} />
        {changes.length > 0 && (
          <ul className="change-list">
            {changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        )}
        <TagList tags={draft.tags} />
      </div>
    );
  }
  return (
    <div>
      <p className="memory-text">{draft.content}</p>
      <TagList tags={draft.tags} />
    </div>
  );
}
