import { useState } from 'react';
import type { ApiError, GrantView } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi, useApiEvents } from '../../api/ApiContext';
import { RelativeTime } from '../../components/RelativeTime';
import { EmptyState, ErrorState, InlineError, LoadingState } from '../../components/StateMessage';
import { useToast } from '../../components/Toasts';
import { useAsync } from '../../hooks/useAsync';
import { useCoalesced } from '../../hooks/useCoalesced';
import { KIND_LABEL, KINDS, ORIGIN_LABEL, scopeLabel } from '../../lib/vocabulary';
import type { ScreenId } from '../../routes';
import { GrantForm } from './GrantForm';

function grantState(grant: GrantView): 'active' | 'revoked' | 'expired' {
  if (grant.revoked_at !== null) return 'revoked';
  if (grant.expires_at !== null && new Date(grant.expires_at).getTime() <= Date.now()) return 'expired';
  return 'active';
}

export function ConnectionsScreen({ onGo }: { onGo(screen: ScreenId): void }) {
  const api = useApi();
  const toast = useToast();
  const connections = useAsync(() => api.connections(), [api]);
  const grants = useAsync(() => api.grants(), [api]);
  const [creating, setCreating] = useState(false);
  const [revokeError, setRevokeError] = useState<ApiError | null>(null);
  const reloadConnections = useCoalesced(connections.reload, 300);
  const reloadGrants = useCoalesced(grants.reload, 300);
  useApiEvents((event) => {
    if (event.type === 'connection.changed' || event.type === 'resync') reloadConnections();
    if (event.type === 'grant.changed' || event.type === 'resync') reloadGrants();
  });

  const revoke = (grant: GrantView): void => {
    setRevokeError(null);
    api.revokeGrant({ grant_id: grant.id }).then(
      () => {
        toast({ text: `Grant for ${grant.host} revoked. Its writes need your decision again.` });
        grants.reload();
      },
      (thrown: unknown) => setRevokeError(toApiError(thrown)),
    );
  };

  const sortedConnections = [...(connections.data ?? [])].sort((a, b) => Number(b.live) - Number(a.live) || (a.last_seen < b.last_seen ? 1 : -1));
  const sortedGrants = [...(grants.data ?? [])].sort((a, b) => (grantState(a) === 'active' ? 0 : 1) - (grantState(b) === 'active' ? 0 : 1) || (a.created_at < b.created_at ? 1 : -1));

  return (
    <section className="screen screen-connections">
      <header className="screen-head">
        <h1>Connections</h1>
        <p className="screen-sub">Hosts that have talked to Nuzo, and the standing consent you gave them.</p>
      </header>
      <div className="screen-body screen-scroll">
        <h2 className="section-title">Hosts</h2>
        {connections.loading ? (
          <LoadingState what="connections" />
        ) : connections.error !== null && connections.data === undefined ? (
          <ErrorState error={connections.error} what="connections" onRetry={connections.reload} />
        ) : sortedConnections.length === 0 ? (
          <EmptyState title="No host has connected yet.">
            <p>
              Add Nuzo to a host’s MCP configuration (
              <button type="button" className="link" onClick={() => onGo('connect')}>
                Connect
              </button>
              , key <kbd>5</kbd>), then start a session in that host. It shows up here while it is connected.
            </p>
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Status</th>
                <th scope="col">Projects</th>
                <th scope="col">Working folder</th>
                <th scope="col">First seen</th>
              </tr>
            </thead>
            <tbody>
              {sortedConnections.map((c) => (
                <tr key={c.id}>
                  <td>
                    <strong>{c.host ?? 'unnamed host'}</strong> {c.host_version !== null && <span className="muted">{c.host_version}</span>}
                  </td>
                  <td className="nowrap">
                    <span className={`status status-${c.live ? 'live' : 'idle'}`}>{c.live ? 'live' : 'idle'}</span>{' '}
                    {!c.live && <RelativeTime value={c.last_seen} prefix="seen " />}
                    {c.live && c.pid !== null && <span className="muted mono small">pid {c.pid}</span>}
                  </td>
                  <td>{c.projects.length > 0 ? c.projects.join(', ') : <span className="muted">none</span>}</td>
                  <td className="mono truncate" title={c.cwd ?? ''}>
                    {c.cwd ?? '—'}
                  </td>
                  <td className="nowrap">
                    <RelativeTime value={c.first_seen} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}

        <div className="section-head">
          <h2 className="section-title">Grants</h2>
          {!creating && (
            <button type="button" className="btn btn-small" onClick={() => setCreating(true)}>
              New grant
            </button>
          )}
        </div>
        {creating && (
          <GrantForm
            connections={connections.data ?? []}
            onCancel={() => setCreating(false)}
            onCreated={() => {
              setCreating(false);
              toast({ text: 'Grant created.' });
              grants.reload();
            }}
          />
        )}
        {revokeError !== null && <InlineError error={revokeError} />}
        {grants.loading ? (
          <LoadingState what="grants" />
        ) : grants.error !== null && grants.data === undefined ? (
          <ErrorState error={grants.error} what="grants" onRetry={grants.reload} />
        ) : sortedGrants.length === 0 ? (
          !creating && (
            <EmptyState title="No grants: every write waits for your decision.">
              <p>That is the safe default. Create a grant only for a host and scope you trust to write without asking, for a limited time.</p>
            </EmptyState>
          )
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Scope</th>
                <th scope="col">Origins</th>
                <th scope="col">Kinds</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sortedGrants.map((g) => {
                const state = grantState(g);
                return (
                  <tr key={g.id} className={state !== 'active' ? 'row-inactive' : ''}>
                    <td>
                      <strong>{g.host}</strong>
                      {g.requires_attestation && <span className="muted small"> · only with confirm: true</span>}
                    </td>
                    <td>{scopeLabel(g.scope)}</td>
                    <td>{g.origins.map((o) => ORIGIN_LABEL[o]).join(', ')}</td>
                    <td>{g.kinds.length === KINDS.length ? 'all' : g.kinds.map((k) => KIND_LABEL[k]).join(', ')}</td>
                    <td className="nowrap">
                      {state === 'revoked' ? (
                        <RelativeTime value={g.revoked_at} prefix="revoked " />
                      ) : state === 'expired' ? (
                        <RelativeTime value={g.expires_at} prefix="expired " />
                      ) : g.expires_at === null ? (
                        'never'
                      ) : (
                        <RelativeTime value={g.expires_at} />
                      )}
                    </td>
                    <td className="cell-actions">
                      {state === 'active' && (
                        <button type="button" className="btn btn-small btn-danger-quiet" onClick={() => revoke(g)}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
