import { useId, useState } from 'react';
import type { ApiError, ConnectionView, GrantInput, Kind, Origin } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi } from '../../api/ApiContext';
import { InlineError } from '../../components/StateMessage';
import { useShortcuts } from '../../hooks/useShortcuts';
import { GRANTABLE_ORIGINS, KIND_LABEL, KINDS, ORIGIN_LABEL, scopeLabel } from '../../lib/vocabulary';

const EXPIRY: Array<{ label: string; ms: number | null }> = [
  { label: '1 hour', ms: 3_600_000 },
  { label: '1 day', ms: 86_400_000 },
  { label: '7 days', ms: 7 * 86_400_000 },
  { label: '30 days', ms: 30 * 86_400_000 },
  { label: 'until I revoke it', ms: null },
];

interface Props {
  connections: ConnectionView[];
  onCreated(): void;
  onCancel(): void;
}

/**
 * Standing consent. Only the origins the service allows in a grant are offered at all:
 * network and unknown content always waits for a person.
 */
export function GrantForm({ connections, onCreated, onCancel }: Props) {
  const api = useApi();
  const id = useId();
  const hosts = [...new Set(connections.map((c) => c.host).filter((h): h is string => h !== null))];
  const scopes = ['user', ...new Set(connections.flatMap((c) => c.projects.map((p) => (p.startsWith('project:') ? p : `project:${p}`))))];
  const [host, setHost] = useState(hosts[0] ?? '');
  const [scope, setScope] = useState('user');
  const [origins, setOrigins] = useState<Origin[]>(['agent']);
  const [kinds, setKinds] = useState<Kind[]>([...KINDS]);
  const [attestation, setAttestation] = useState(false);
  const [expiry, setExpiry] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  useShortcuts({ Escape: onCancel });

  const toggle = <T,>(list: T[], item: T): T[] => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
  const valid = host.trim() !== '' && origins.length > 0 && kinds.length > 0;

  const submit = (): void => {
    const ms = EXPIRY[expiry]?.ms ?? null;
    const input: GrantInput = {
      host: host.trim(),
      scope,
      origins,
      kinds,
      requires_attestation: attestation,
      expires_at: ms === null ? null : new Date(Date.now() + ms).toISOString(),
    };
    setBusy(true);
    setError(null);
    api.createGrant(input).then(
      () => {
        setBusy(false);
        onCreated();
      },
      (thrown: unknown) => {
        setBusy(false);
        setError(toApiError(thrown));
      },
    );
  };

  return (
    <form
      className="card grant-form"
      aria-label="New grant"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && !busy) submit();
      }}
    >
      <h3 className="section-title">New grant</h3>
      <p className="muted small">
        A grant lets matching writes from one host go through without asking you each time. Writes are still validated, scanned for secrets and audited, and you can revoke
        the grant at any time.
      </p>
      <div className="field-row">
        <label className="field" htmlFor={`${id}-host`}>
          <span className="field-label">Host</span>
          <input id={`${id}-host`} list={`${id}-hosts`} value={host} onChange={(e) => setHost(e.target.value)} placeholder="e.g. claude-code" required />
          <datalist id={`${id}-hosts`}>
            {hosts.map((h) => (
              <option key={h} value={h} />
            ))}
          </datalist>
        </label>
        <label className="field" htmlFor={`${id}-scope`}>
          <span className="field-label">Scope</span>
          <select id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value)}>
            {scopes.map((s) => (
              <option key={s} value={s}>
                {scopeLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-expiry`}>
          <span className="field-label">Expires</span>
          <select id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(Number(e.target.value))}>
            {EXPIRY.map((choice, i) => (
              <option key={choice.label} value={i}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="choices">
        <legend className="field-label">Origins covered</legend>
        {GRANTABLE_ORIGINS.map((origin) => (
          <label key={origin} className="choice">
            <input type="checkbox" checked={origins.includes(origin)} onChange={() => setOrigins(toggle(origins, origin))} />
            {ORIGIN_LABEL[origin]}
          </label>
        ))}
        <span className="muted small">network and unknown always need your decision.</span>
      </fieldset>
      <fieldset className="choices">
        <legend className="field-label">Kinds covered</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="choice">
            <input type="checkbox" checked={kinds.includes(kind)} onChange={() => setKinds(toggle(kinds, kind))} />
            {KIND_LABEL[kind]}
          </label>
        ))}
      </fieldset>
      <label className="choice">
        <input type="checkbox" checked={attestation} onChange={(e) => setAttestation(e.target.checked)} />
        Only when the host says it showed me the draft (<code>confirm: true</code>)
      </label>
      {error !== null && <InlineError error={error} />}
      <div className="editor-actions">
        <button type="submit" className="btn btn-primary" disabled={!valid || busy}>
          {busy ? 'Creating…' : 'Create grant'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
