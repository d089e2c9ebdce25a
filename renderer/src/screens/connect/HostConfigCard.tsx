import { useState } from 'react';
import type { ApiError, HostConfigView } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi } from '../../api/ApiContext';
import { CopyButton } from '../../components/CopyButton';
import { InlineError } from '../../components/StateMessage';

type Written = { path: string; backup: string | null; changed: boolean };

export function HostConfigCard({ config, onWritten }: { config: HostConfigView; onWritten(): void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<Written | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const write = (): void => {
    setBusy(true);
    setError(null);
    api.writeHostConfig({ host: config.host }).then(
      (result) => {
        setBusy(false);
        setWritten(result);
        onWritten();
      },
      (thrown: unknown) => {
        setBusy(false);
        setError(toApiError(thrown));
      },
    );
  };
  return (
    <article className="card host" aria-labelledby={`host-${config.host}`}>
      <header className="host-head">
        <h2 id={`host-${config.host}`}>{config.label}</h2>
        <span className={`pill${config.installed ? ' pill-ok' : ''}`}>{config.installed ? 'Nuzo is configured' : 'not configured yet'}</span>
      </header>
      <p className="small">
        Add this to <span className="mono">{config.config_path}</span>, then restart {config.label}:
      </p>
      <pre className="snippet" tabIndex={0} aria-label={`Configuration for ${config.label}`}>
        <code>{config.snippet}</code>
      </pre>
      <div className="editor-actions">
        <CopyButton text={config.snippet} small={false} />
        <button type="button" className="btn" disabled={busy} onClick={write}>
          {busy ? 'Writing…' : 'Write it for me'}
        </button>
      </div>
      {written !== null && (
        <p className="small ok-text" role="status">
          {written.changed ? (
            <>
              Written to <span className="mono">{written.path}</span>
              {written.backup !== null && (
                <>
                  {' '}
                  (the previous file is kept as <span className="mono">{written.backup}</span>)
                </>
              )}
              . Restart {config.label} to connect.
            </>
          ) : (
            <>Already there: {config.label} is configured. Restart it if it does not show Nuzo’s tools.</>
          )}
        </p>
      )}
      {error !== null && <InlineError error={error} />}
    </article>
  );
}
