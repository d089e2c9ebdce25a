import { useApi } from '../../api/ApiContext';
import { EmptyState, ErrorState, LoadingState } from '../../components/StateMessage';
import { useAsync } from '../../hooks/useAsync';
import { HostConfigCard } from './HostConfigCard';

export function ConnectScreen() {
  const api = useApi();
  const configs = useAsync(() => api.hostConfigs(), [api]);
  let body;
  if (configs.loading) body = <LoadingState what="host configurations" />;
  else if (configs.error !== null && configs.data === undefined) body = <ErrorState error={configs.error} what="host configurations" onRetry={configs.reload} />;
  else if ((configs.data ?? []).length === 0)
    body = (
      <EmptyState title="No host configurations are available.">
        <p>
          Run <code>nuzo connect claude-code --print</code> (or claude-desktop, cursor, vscode) in a terminal to see the snippet.
        </p>
      </EmptyState>
    );
  else body = <div className="hosts">{(configs.data ?? []).map((config) => <HostConfigCard key={config.host} config={config} onWritten={configs.reload} />)}</div>;
  return (
    <section className="screen screen-connect">
      <header className="screen-head">
        <h1>Connect</h1>
        <p className="screen-sub">Each host starts Nuzo’s bridge itself once this is in its MCP configuration. Writing it for you keeps a backup of the old file.</p>
      </header>
      <div className="screen-body screen-scroll">{body}</div>
    </section>
  );
}
