import { useState } from 'react';
import type { AuditEntry } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi, useApiEvents } from '../../api/ApiContext';
import { RelativeTime } from '../../components/RelativeTime';
import { EmptyState, ErrorState, InlineError, LoadingState } from '../../components/StateMessage';
import { useAsync } from '../../hooks/useAsync';
import { useCoalesced } from '../../hooks/useCoalesced';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { actorLabel } from '../memories/RevisionHistory';

const PAGE = 100;
type Outcome = AuditEntry['outcome'];
const OUTCOMES: Outcome[] = ['ok', 'refused', 'error', 'pending'];

function looksLikeMemoryId(target: string | null): target is string {
  return target !== null && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(target);
}

export function ActivityScreen({ onOpenMemory }: { onOpenMemory(id: string): void }) {
  const api = useApi();
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<Outcome | ''>('');
  const [actorText, setActorText] = useState('');
  const actor = useDebouncedValue(actorText.trim(), 200);
  const actionFilter = useDebouncedValue(action.trim(), 200);
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [olderDone, setOlderDone] = useState(false);
  const [moreError, setMoreError] = useState<ReturnType<typeof toApiError> | null>(null);
  const filters = {
    ...(actionFilter !== '' ? { action: actionFilter } : {}),
    ...(outcome !== '' ? { outcome } : {}),
    ...(actor !== '' ? { actor } : {}),
  };
  const first = useAsync(() => {
    setOlder([]);
    setOlderDone(false);
    return api.audit({ ...filters, limit: PAGE });
  }, [api, actionFilter, outcome, actor]);
  const reload = useCoalesced(() => {
    if (older.length === 0) first.reload();
  }, 500);
  // Everything the service does is audited, so any event means new rows on top.
  useApiEvents(reload);

  const entries = [...(first.data ?? []), ...older];
  const knownActions = [...new Set(entries.map((e) => e.action))].sort();
  const loadOlder = (): void => {
    const last = entries[entries.length - 1];
    if (last === undefined) return;
    api.audit({ ...filters, limit: PAGE, before: last.seq }).then(
      (rows) => {
        setOlder((all) => [...all, ...rows]);
        setOlderDone(rows.length < PAGE);
        setMoreError(null);
      },
      (thrown: unknown) => setMoreError(toApiError(thrown)),
    );
  };

  let body;
  if (first.loading) body = <LoadingState what="activity" />;
  else if (first.error !== null && first.data === undefined) body = <ErrorState error={first.error} what="activity" onRetry={first.reload} />;
  else if (entries.length === 0)
    body = (
      <EmptyState title={Object.keys(filters).length > 0 ? 'No activity matches these filters.' : 'No activity yet.'}>
        <p>Every write, decision, refusal and grant is recorded here, without memory text or secrets. Connect a host to get started.</p>
      </EmptyState>
    );
  else
    body = (
      <>
        <table className="table audit">
          <thead>
            <tr>
              <th scope="col" className="col-when">When</th>
              <th scope="col" className="col-who">Who</th>
              <th scope="col" className="col-action">Action</th>
              <th scope="col" className="col-outcome">Outcome</th>
              <th scope="col" className="col-target">Target</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.seq}>
                <td className="nowrap">
                  <RelativeTime value={entry.at} />
                </td>
                <td className="truncate" title={entry.actor}>
                  {actorLabel(entry.actor)}
                </td>
                <td className="mono truncate" title={entry.action}>
                  {entry.action}
                </td>
                <td>
                  <span className={`outcome outcome-${entry.outcome}`}>{entry.outcome}</span>
                </td>
                <td className="mono truncate" title={entry.target ?? ''}>
                  {looksLikeMemoryId(entry.target) ? (
                    <button type="button" className="link mono" onClick={() => onOpenMemory(entry.target as string)}>
                      {entry.target}
                    </button>
                  ) : (
                    (entry.target ?? '—')
                  )}
                </td>
                <td className="mono truncate" title={entry.reason ?? ''}>
                  {entry.reason ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {moreError !== null && <InlineError error={moreError} />}
        {!olderDone && (first.data?.length ?? 0) >= PAGE && (
          <button type="button" className="btn load-more" onClick={loadOlder}>
            Load older entries
          </button>
        )}
      </>
    );

  return (
    <section className="screen screen-activity">
      <header className="screen-head screen-head-tools">
        <h1>Activity</h1>
        <div className="filters filters-inline" role="group" aria-label="Filters">
          <input type="text" aria-label="Action" placeholder="Action, e.g. memory.create" list="audit-actions" value={action} onChange={(e) => setAction(e.target.value)} />
          <datalist id="audit-actions">
            {knownActions.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
          <select aria-label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as Outcome | '')}>
            <option value="">Any outcome</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <input type="text" aria-label="Actor" placeholder="Actor: window, mcp:…" value={actorText} onChange={(e) => setActorText(e.target.value)} />
        </div>
      </header>
      <div className="screen-body screen-scroll">{body}</div>
    </section>
  );
}
