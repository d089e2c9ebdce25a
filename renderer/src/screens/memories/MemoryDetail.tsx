import { useState } from 'react';
import type { ApiError, DraftEdits, Memory } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi, useApiEvents } from '../../api/ApiContext';
import { FieldsEditor, type FieldValues } from '../../components/FieldsEditor';
import { Icon } from '../../components/Icon';
import { OriginBadge } from '../../components/OriginBadge';
import { RelativeTime } from '../../components/RelativeTime';
import { ErrorState, InlineError, LoadingState } from '../../components/StateMessage';
import { TagList } from '../../components/TagList';
import { useToast, type ToastInput } from '../../components/Toasts';
import { useAsync } from '../../hooks/useAsync';
import { useShortcuts } from '../../hooks/useShortcuts';
import { KIND_LABEL, ORIGIN_MEANING, parseTags, scopeLabel } from '../../lib/vocabulary';
import { ConflictPanel } from './ConflictPanel';
import { RevisionHistory } from './RevisionHistory';

interface Props {
  memoryId: string;
  scopes: string[];
  /** Set when the detail pane has keyboard focus context (e opens the editor). */
  active: boolean;
}

interface EditState {
  values: FieldValues;
  /** The revision the person was looking at when they opened the editor. */
  base: Memory;
}

interface Conflict {
  current: Memory;
  edit: EditState;
}

function valuesOf(memory: Memory): FieldValues {
  return { content: memory.content, kind: memory.kind, scope: memory.scope, tagsText: memory.tags.join(', ') };
}

function changes(base: Memory, values: FieldValues): DraftEdits {
  const edits: DraftEdits = {};
  if (values.content !== base.content) edits.content = values.content;
  if (values.kind !== base.kind) edits.kind = values.kind;
  if (values.scope !== base.scope) edits.scope = values.scope;
  const tags = parseTags(values.tagsText);
  if (tags.join('\u0000') !== base.tags.join('\u0000')) edits.tags = tags;
  return edits;
}

export function MemoryDetail({ memoryId, scopes, active }: Props) {
  const api = useApi();
  const toast = useToast();
  const detail = useAsync(() => api.memory({ memory_id: memoryId }), [api, memoryId]);
  const [edit, setEdit] = useState<EditState | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  useApiEvents((event) => {
    if ((event.type === 'memory.changed' && event.id === memoryId) || event.type === 'resync') detail.reload();
  });

  const memory = detail.data?.memory;
  const revisions = detail.data?.revisions ?? [];

  const run = (label: string, action: () => Promise<Memory>, undo?: (m: Memory) => ToastInput['action']): void => {
    setBusy(true);
    setError(null);
    action().then(
      (m) => {
        setBusy(false);
        detail.reload();
        const undoAction = undo?.(m);
        toast({ text: label, ...(undoAction !== undefined ? { action: undoAction } : {}) });
      },
      (thrown: unknown) => {
        setBusy(false);
        setError(toApiError(thrown));
        detail.reload();
      },
    );
  };

  const save = (state: EditState, expected: number): void => {
    const edits = changes(state.base, state.values);
    if (Object.keys(edits).length === 0) {
      setEdit(null);
      return;
    }
    setBusy(true);
    setError(null);
    api.updateMemory({ memory_id: memoryId, expected_revision: expected, ...edits }).then(
      (saved) => {
        setBusy(false);
        setEdit(null);
        setConflict(null);
        detail.reload();
        toast({ text: `Saved as revision ${saved.revision}.` });
      },
      (thrown: unknown) => {
        setBusy(false);
        const problem = toApiError(thrown);
        if (problem.code !== 'revision_conflict') {
          setError(problem);
          return;
        }
        // Fetch what is there now and show it; the person's text stays in the conflict panel.
        api.memory({ memory_id: memoryId }).then(
          (fresh) => {
            setEdit(null);
            setConflict({ current: fresh.memory, edit: state });
            detail.reload();
          },
          (again: unknown) => setError(toApiError(again)),
        );
      },
    );
  };

  const startEdit = (): void => {
    if (memory === undefined || memory.deleted_at !== null || edit !== null || conflict !== null) return;
    setError(null);
    setEdit({ values: valuesOf(memory), base: memory });
  };
  useShortcuts({ e: startEdit }, active && edit === null && conflict === null);

  if (detail.loading) return <LoadingState what="the memory" />;
  if (memory === undefined) {
    return <ErrorState error={detail.error ?? { code: 'not_found', message: 'This memory was not found.' }} what="this memory" onRetry={detail.reload} />;
  }

  const forgotten = memory.deleted_at !== null;
  const provenance = Object.entries(memory.provenance);

  return (
    <article className="detail" aria-label="Memory detail" data-memory-id={memory.id}>
      <header className="detail-head">
        <OriginBadge origin={memory.origin} />
        <span className="meta">{KIND_LABEL[memory.kind]}</span>
        <span className="meta">{scopeLabel(memory.scope)}</span>
        <span className="meta">rev {memory.revision}</span>
        {forgotten && (
          <span className="pill pill-danger">
            forgotten <RelativeTime value={memory.deleted_at} />
          </span>
        )}
      </header>

      {conflict !== null ? (
        <ConflictPanel
          current={conflict.current}
          baseRevision={conflict.edit.base.revision}
          mine={conflict.edit.values.content}
          busy={busy}
          onApplyMine={() => save({ values: conflict.edit.values, base: conflict.current }, conflict.current.revision)}
          onKeepEditing={() => {
            setEdit({ values: conflict.edit.values, base: conflict.current });
            setConflict(null);
          }}
          onDiscard={() => setConflict(null)}
        />
      ) : edit !== null ? (
        <FieldsEditor
          label="Edit memory"
          value={edit.values}
          onChange={(values) => setEdit({ ...edit, values })}
          onSubmit={() => save(edit, edit.base.revision)}
          onCancel={() => {
            setEdit(null);
            setError(null);
          }}
          scopes={scopes}
          submitLabel="Save"
          busy={busy}
          error={error}
          notice={
            memory.revision !== edit.base.revision ? (
              <p className="editor-notice editor-notice-warn">
                Someone changed this memory since you opened the editor (now revision {memory.revision}). Saving will show you both versions first.
              </p>
            ) : undefined
          }
        />
      ) : (
        <>
          <p className="memory-text detail-text">{memory.content}</p>
          <TagList tags={memory.tags} />
          {error !== null && <InlineError error={error} />}
          <div className="detail-actions">
            {forgotten ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => run('Restored from the Trash.', () => api.restoreMemory({ memory_id: memory.id, expected_revision: memory.revision }))}
              >
                <Icon name="restore" />
                Restore
              </button>
            ) : (
              <>
                <button type="button" className="btn" disabled={busy} onClick={startEdit} aria-keyshortcuts="e">
                  <Icon name="edit" />
                  Edit <kbd>e</kbd>
                </button>
                <button
                  type="button"
                  className="btn btn-danger-quiet"
                  disabled={busy}
                  onClick={() =>
                    run('Forgotten: moved to the Trash.', () => api.forgetMemory({ memory_id: memory.id, expected_revision: memory.revision }), (gone) => ({
                      label: 'Undo',
                      run: () => run('Restored.', () => api.restoreMemory({ memory_id: gone.id, expected_revision: gone.revision })),
                    }))
                  }
                >
                  <Icon name="trash" />
                  Forget
                </button>
              </>
            )}
          </div>
        </>
      )}

      <section className="detail-section" aria-label="Where it came from">
        <h3 className="section-title">Where it came from</h3>
        <dl className="kv">
          <div>
            <dt>origin</dt>
            <dd>{ORIGIN_MEANING[memory.origin]}</dd>
          </div>
          <div>
            <dt>created</dt>
            <dd>
              <RelativeTime value={memory.created_at} />
            </dd>
          </div>
          <div>
            <dt>updated</dt>
            <dd>
              <RelativeTime value={memory.updated_at} />
            </dd>
          </div>
          {provenance.map(([key, value]) => (
            <div key={key}>
              <dt>{key.replace(/_/g, ' ')}</dt>
              <dd className="mono">{String(value)}</dd>
            </div>
          ))}
          <div>
            <dt>id</dt>
            <dd className="mono">{memory.id}</dd>
          </div>
        </dl>
      </section>

      <section className="detail-section" aria-label="History">
        <h3 className="section-title">History ({revisions.length})</h3>
        <RevisionHistory
          memory={memory}
          revisions={revisions}
          busy={busy || edit !== null}
          onRestore={(revision) =>
            run(`Revision ${revision} is current again.`, () => api.restoreRevision({ memory_id: memory.id, revision, expected_revision: memory.revision }))
          }
        />
      </section>
    </article>
  );
}
