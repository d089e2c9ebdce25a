/** The window's screens, their number keys and `g <letter>` chords, and hash routes. */
export const SCREENS = [
  { id: 'inbox', label: 'Inbox', key: '1', chord: 'i' },
  { id: 'memories', label: 'Memories', key: '2', chord: 'm' },
  { id: 'activity', label: 'Activity', key: '3', chord: 'a' },
  { id: 'connections', label: 'Connections', key: '4', chord: 'c' },
  { id: 'connect', label: 'Connect', key: '5', chord: 'n' },
  { id: 'settings', label: 'Settings', key: '6', chord: 's' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

export interface Route {
  screen: ScreenId;
  /** Memories only: a memory to open (links from inbox warnings). */
  memoryId: string | null;
}

export function parseHash(hash: string): Route {
  const [screen = '', memoryId = null] = hash.replace(/^#\/?/, '').split('/');
  const known = SCREENS.find((s) => s.id === screen);
  return { screen: known?.id ?? 'inbox', memoryId: known?.id === 'memories' && memoryId !== null && memoryId !== '' ? decodeURIComponent(memoryId) : null };
}

export function hashFor(route: Route): string {
  return route.memoryId === null ? `#/${route.screen}` : `#/${route.screen}/${encodeURIComponent(route.memoryId)}`;
}
