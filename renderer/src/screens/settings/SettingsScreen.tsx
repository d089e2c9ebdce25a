import { useId, useState, type ReactNode } from 'react';
import type { ApiError } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi } from '../../api/ApiContext';
import { CopyButton } from '../../components/CopyButton';
import { ErrorState, InlineError, LoadingState } from '../../components/StateMessage';
import { useAsync } from '../../hooks/useAsync';

/** One button, its busy state, and what happened — for the slow file operations. */
function useTask<T>() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const run = (task: () => Promise<T>): void => {
    setBusy(true);
    setError(null);
    setResult(null);
    task().then(
      (value) => {
        setBusy(false);
        setResult(value);
      },
      (thrown: unknown) => {
        setBusy(false);
        setError(toApiError(thrown));
      },
    );
  };
  return { busy, result, error, run };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card settings-section" aria-label={title}>
      <h2 className="section-title">{title}</h2>
      {children}
    </section>
  );
}

export function SettingsScreen({ onChanged }: { onChanged(): void }) {
  const api = useApi();
  const id = useId();
  const settings = useAsync(() => api.settings(), [api]);
  const pause = useTask<unknown>();
  const exporting = useTask<{ path: string; count: number }>();
  const importing = useTask<{ written: number; duplicate: number; refused: number }>();
  const backup = useTask<{ path: string }>();
  const [exportPath, setExportPath] = useState('');
  const [importPath, setImportPath] = useState('');

  if (settings.loading) return <LoadingState what="settings" />;
  if (settings.data === undefined) return <ErrorState error={settings.error ?? { code: 'internal_error', message: 'No settings.' }} what="settings" onRetry={settings.reload} />;
  const s = settings.data;

  return (
    <section className="screen screen-settings">
      <header className="screen-head">
        <h1>Settings</h1>
        <p className="screen-sub">
          Nuzo {s.version} · schema {s.schema_version} · {s.memory_count.toLocaleString()} memories
        </p>
      </header>
      <div className="screen-body screen-scroll settings">
        <Section title="Data folder">
          <p className="path-line">
            <span className="mono">{s.data_folder}</span> <CopyButton text={s.data_folder} label="Copy path" />
          </p>
          <p className="muted small">
            Everything Nuzo keeps is in this folder. Set <code>NUZO_HOME</code> before starting Nuzo to use another one.
          </p>
        </Section>

        <Section title="Capture">
          <label className="choice">
            <input
              type="checkbox"
              checked={s.capture_paused}
              disabled={pause.busy}
              onChange={(e) => {
                const paused = e.target.checked;
                pause.run(() =>
                  api.setCapturePaused({ paused }).then((next) => {
                    settings.reload();
                    onChanged();
                    return next;
                  }),
                );
              }}
            />
            Pause capture
          </label>
          <p className="muted small">
            {s.capture_paused
              ? 'Paused: agents’ proposals and hook captures are refused until you resume. Reading memories still works.'
              : 'While paused, agents and hooks cannot propose new memories. Reading memories keeps working.'}
          </p>
          {pause.error !== null && <InlineError error={pause.error} />}
        </Section>

        <Section title="Export">
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              exporting.run(() => api.exportData(exportPath.trim() !== '' ? { path: exportPath.trim() } : {}));
            }}
          >
            <label htmlFor={`${id}-export`} className="sr-only">
              Export file
            </label>
            <input id={`${id}-export`} type="text" className="mono" placeholder="File path (empty: a dated file in the data folder)" value={exportPath} onChange={(e) => setExportPath(e.target.value)} />
            <button type="submit" className="btn" disabled={exporting.busy}>
              {exporting.busy ? 'Exporting…' : 'Export'}
            </button>
          </form>
          <p className="muted small">JSON Lines, one memory a line with all its revisions; forgotten memories are included and marked.</p>
          {exporting.result !== null && (
            <p className="small ok-text" role="status">
              Exported {exporting.result.count.toLocaleString()} memories to <span className="mono">{exporting.result.path}</span>.
            </p>
          )}
          {exporting.error !== null && <InlineError error={exporting.error} />}
        </Section>

        <Section title="Import">
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (importPath.trim() !== '') importing.run(() => api.importData({ path: importPath.trim() }));
            }}
          >
            <label htmlFor={`${id}-import`} className="sr-only">
              File to import
            </label>
            <input id={`${id}-import`} type="text" className="mono" placeholder="Path of a .jsonl file on this machine" value={importPath} onChange={(e) => setImportPath(e.target.value)} />
            <button type="submit" className="btn" disabled={importing.busy || importPath.trim() === ''}>
              {importing.busy ? 'Importing…' : 'Import'}
            </button>
          </form>
          <p className="muted small">
            One memory a line: <code>{'{"content": "…", "kind": "fact", "tags": ["…"]}'}</code>. Every line goes through the same checks as any write (origin: import); a
            refused line does not stop the rest.
          </p>
          {importing.result !== null && (
            <p className="small ok-text" role="status">
              Written {importing.result.written.toLocaleString()}, already present {importing.result.duplicate.toLocaleString()}, refused{' '}
              {importing.result.refused.toLocaleString()}
              {importing.result.refused > 0 ? ' — Activity lists why each was refused.' : '.'}
            </p>
          )}
          {importing.error !== null && <InlineError error={importing.error} />}
        </Section>

        <Section title="Backup">
          <p className="small">A consistent copy of the database, safe to take while Nuzo runs.</p>
          <button type="button" className="btn" disabled={backup.busy} onClick={() => backup.run(() => api.backup())}>
            {backup.busy ? 'Backing up…' : 'Back up now'}
          </button>
          {backup.result !== null && (
            <p className="small ok-text" role="status">
              Saved to <span className="mono">{backup.result.path}</span>.
            </p>
          )}
          {backup.error !== null && <InlineError error={backup.error} />}
        </Section>
      </div>
    </section>
  );
}
