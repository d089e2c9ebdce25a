import { forwardRef, useState } from 'react';
import type { ApiError, DraftEdits, OfferView } from '../../../../main/ui-api/contract';
import { FieldsEditor, type FieldValues } from '../../components/FieldsEditor';
import { Icon } from '../../components/Icon';
import { OriginBadge } from '../../components/OriginBadge';
import { RelativeTime } from '../../components/RelativeTime';
import { InlineError } from '../../components/StateMessage';
import { KIND_LABEL, parseTags, scopeLabel } from '../../lib/vocabulary';
import { OfferBody } from './OfferBody';
import { OfferWarnings } from './OfferWarnings';

interface OfferCardProps {
  offer: OfferView;
  selected: boolean;
  editing: boolean;
  busy: boolean;
  error: ApiError | null;
  onSelect(): void;
  onDecide(approve: boolean, edits?: DraftEdits): void;
  onEdit(open: boolean): void;
  onOpenMemory(id: string): void;
}

function scopesFor(offer: OfferView): string[] {
  const projects = offer.requester.projects.map((p) => (p.startsWith('project:') ? p : `project:${p}`));
  return ['user', ...projects.filter((p, i) => projects.indexOf(p) === i)];
}

/** Only the fields the person changed become edits, so the rest stays exactly as proposed. */
function editsFrom(draft: OfferView['draft'], values: FieldValues): DraftEdits {
  const edits: DraftEdits = {};
  if (values.content !== draft.content) edits.content = values.content;
  if (values.kind !== draft.kind) edits.kind = values.kind;
  if (values.scope !== draft.scope) edits.scope = values.scope;
  const tags = parseTags(values.tagsText);
  if (tags.join('\u0000') !== draft.tags.join('\u0000')) edits.tags = tags;
  return edits;
}

const ACTION_LABEL: Record<OfferView['draft']['action'], string> = {
  create: 'New memory',
  update: 'Update',
  forget: 'Forget request',
};

export const OfferCard = forwardRef<HTMLElement, OfferCardProps>(function OfferCard({ offer, selected, editing, busy, error, onSelect, onDecide, onEdit, onOpenMemory }, ref) {
  const { draft, requester } = offer;
  const [values, setValues] = useState<FieldValues>(() => ({ content: draft.content, kind: draft.kind, scope: draft.scope, tagsText: draft.tags.join(', ') }));
  const forget = draft.action === 'forget';
  const hostLabel = requester.host === null ? 'an unnamed host' : requester.host_version === null ? requester.host : `${requester.host} ${requester.host_version}`;

  return (
    <article
      ref={ref}
      className={`offer card${selected ? ' card-selected' : ''}${forget ? ' offer-is-forget' : ''}`}
      tabIndex={selected ? 0 : -1}
      aria-label={`${ACTION_LABEL[draft.action]} from ${hostLabel}`}
      aria-current={selected ? 'true' : undefined}
      data-offer-id={offer.id}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onSelect();
      }}
      onClick={onSelect}
    >
      <header className="offer-head">
        <div className="offer-head-main">
          {/* A forget request's draft carries the memory's own origin, not the requester's. */}
          {!forget && <OriginBadge origin={draft.origin} />}
          <span className={`offer-action offer-action-${draft.action}`}>
            {forget && <Icon name="trash" />}
            {ACTION_LABEL[draft.action]}
          </span>
          <span className="meta">{KIND_LABEL[draft.kind]}</span>
          <span className="meta">{scopeLabel(draft.scope)}</span>
          <span className="offer-time meta">
            <RelativeTime value={offer.created_at} />
          </span>
        </div>
        <div className="offer-from meta">
          from <strong>{hostLabel}</strong>
          {requester.projects.length > 0 && <> in {requester.projects.join(', ')}</>} · <RelativeTime value={offer.expires_at} prefix="expires " />
        </div>
      </header>

      {editing ? (
        <FieldsEditor
          label="Edit the draft, then approve"
          value={values}
          onChange={setValues}
          scopes={scopesFor(offer)}
          submitLabel="Approve edited"
          busy={busy}
          error={error}
          onCancel={() => onEdit(false)}
          onSubmit={() => onDecide(true, editsFrom(draft, values))}
          notice={<p className="editor-notice">Your edits become the memory’s final text, recorded with origin “user”.</p>}
        />
      ) : (
        <>
          <OfferBody draft={draft} />
          <OfferWarnings draft={draft} onOpenMemory={onOpenMemory} />
          {error !== null && <InlineError error={error} />}
          <div className="offer-actions">
            <button type="button" className={`btn ${forget ? 'btn-danger' : 'btn-primary'}`} disabled={busy} onClick={() => onDecide(true)} aria-keyshortcuts="a">
              <Icon name="check" />
              {forget ? 'Forget it' : draft.action === 'update' ? 'Approve update' : 'Approve'}
              <kbd>a</kbd>
            </button>
            {!forget && (
              <button type="button" className="btn" disabled={busy} onClick={() => onEdit(true)} aria-keyshortcuts="e">
                <Icon name="edit" />
                Edit
                <kbd>e</kbd>
              </button>
            )}
            <button type="button" className="btn" disabled={busy} onClick={() => onDecide(false)} aria-keyshortcuts="r">
              <Icon name="x" />
              {forget ? 'Keep it' : 'Reject'}
              <kbd>r</kbd>
            </button>
            {Object.keys(draft.provenance).length > 0 && (
              <details className="offer-provenance">
                <summary>Provenance</summary>
                <dl className="kv">
                  {Object.entries(draft.provenance).map(([key, value]) => (
                    <div key={key}>
                      <dt>{key}</dt>
                      <dd className="mono">{String(value)}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            )}
          </div>
        </>
      )}
    </article>
  );
});
