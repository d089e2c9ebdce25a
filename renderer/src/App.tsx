import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Facets, SettingsView } from '../../main/ui-api/contract';
import { useApi, useApiEvents } from './api/ApiContext';
import { LinkBanner } from './components/LinkBanner';
import { Nav } from './components/Nav';
import { ShortcutHelp } from './components/ShortcutHelp';
import { useCoalesced } from './hooks/useCoalesced';
import { createRegistry, ShortcutProvider } from './hooks/useShortcuts';
import { hashFor, parseHash, SCREENS, type Route, type ScreenId } from './routes';
import { ActivityScreen } from './screens/activity/ActivityScreen';
import { ConnectScreen } from './screens/connect/ConnectScreen';
import { ConnectionsScreen } from './screens/connections/ConnectionsScreen';
import { InboxScreen } from './screens/inbox/InboxScreen';
import { MemoriesScreen } from './screens/memories/MemoriesScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return false;
}

export function App() {
  const api = useApi();
  const registry = useMemo(() => createRegistry(), []);
  const [route, setRoute] = useState<Route>(() => parseHash(window.location.hash));
  const [help, setHelp] = useState(false);
  const [searchRequest, setSearchRequest] = useState(0);
  const [counts, setCounts] = useState<Facets['counts'] | null>(null);
  const [settings, setSettings] = useState<SettingsView | null>(null);
  const main = useRef<HTMLElement>(null);

  const navigate = useCallback((next: Route) => {
    setRoute(next);
    const hash = hashFor(next);
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, []);
  const go = useCallback((screen: ScreenId) => navigate({ screen, memoryId: null }), [navigate]);
  const searchFocused = useCallback(() => setSearchRequest(0), []);
  const openMemory = useCallback((memoryId: string) => navigate({ screen: 'memories', memoryId }), [navigate]);

  useEffect(() => {
    const onHash = (): void => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // Moving focus to the new screen lets keyboard users continue from its top — unless the screen
  // already put it somewhere on purpose (`/` focuses the search box; child effects run first).
  useEffect(() => {
    const el = main.current;
    if (el !== null && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
  }, [route.screen]);

  const refreshChrome = useCallback(() => {
    api.facets().then((f) => setCounts(f.counts), () => undefined);
    api.settings().then(setSettings, () => undefined);
  }, [api]);
  useEffect(refreshChrome, [refreshChrome]);
  // Bursts (an import writes thousands) collapse into one refresh of the counts.
  useApiEvents(useCoalesced(refreshChrome, 400));

  useEffect(() => {
    let chord = false;
    let chordTimer: ReturnType<typeof setTimeout> | null = null;
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (event.key === 'Escape') {
        if (registry.dispatch('Escape')) event.preventDefault();
        return;
      }
      if (isTypingTarget(event.target)) return;
      if (chord) {
        chord = false;
        const target = SCREENS.find((s) => s.chord === event.key);
        if (target !== undefined) {
          event.preventDefault();
          go(target.id);
        }
        return;
      }
      if (event.key === 'g') {
        chord = true;
        if (chordTimer !== null) clearTimeout(chordTimer);
        chordTimer = setTimeout(() => (chord = false), 1200);
        return;
      }
      const numbered = SCREENS.find((s) => s.key === event.key);
      if (numbered !== undefined) {
        event.preventDefault();
        go(numbered.id);
        return;
      }
      if (event.key === '?') {
        event.preventDefault();
        setHelp((open) => !open);
        return;
      }
      if (event.key === '/') {
        event.preventDefault();
        go('memories');
        setSearchRequest((n) => n + 1);
        return;
      }
      if (registry.dispatch(event.key)) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (chordTimer !== null) clearTimeout(chordTimer);
    };
  }, [registry, go]);

  const title = SCREENS.find((s) => s.id === route.screen)?.label ?? 'Nuzo';
  useEffect(() => {
    document.title = counts !== null && counts.pending > 0 ? `(${counts.pending}) ${title} — Nuzo` : `${title} — Nuzo`;
  }, [title, counts]);

  return (
    <ShortcutProvider registry={registry}>
      <div className="app">
        <Nav current={route.screen} onGo={go} counts={counts} settings={settings} />
        <main ref={main} className="main" tabIndex={-1} aria-label={title}>
          <LinkBanner />
          {route.screen === 'inbox' && <InboxScreen onOpenMemory={openMemory} onGo={go} />}
          {route.screen === 'memories' && (
            <MemoriesScreen focusMemoryId={route.memoryId} searchRequest={searchRequest} onSearchFocused={searchFocused} onOpenMemory={openMemory} />
          )}
          {route.screen === 'activity' && <ActivityScreen onOpenMemory={openMemory} />}
          {route.screen === 'connections' && <ConnectionsScreen onGo={go} />}
          {route.screen === 'connect' && <ConnectScreen />}
          {route.screen === 'settings' && <SettingsScreen onChanged={refreshChrome} />}
        </main>
        {help && <ShortcutHelp onClose={() => setHelp(false)} />}
      </div>
    </ShortcutProvider>
  );
}
