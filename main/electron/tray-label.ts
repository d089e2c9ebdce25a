/** The words the tray, its menu and the window title use for the pending count. */
export interface TrayText {
  /** Tooltip (all platforms). */
  tooltip: string;
  /** Text beside the icon in the macOS menu bar: the count, or nothing. */
  title: string;
  /** The window's title: the same sentence, so a glance at the task bar says it too. */
  windowTitle: string;
  /** The menu item that opens the inbox. */
  inboxItem: string;
}

export function trayText(pending: number, capturePaused = false): TrayText {
  const n = Number.isFinite(pending) && pending > 0 ? Math.floor(pending) : 0;
  const waiting = n === 0 ? 'Nuzo — nothing waiting' : `Nuzo — ${n} waiting`;
  return {
    tooltip: capturePaused ? `${waiting} (capture paused)` : waiting,
    title: n === 0 ? '' : n > 99 ? '99+' : String(n),
    windowTitle: n === 0 ? 'Nuzo' : waiting,
    inboxItem: n === 0 ? 'Inbox' : `Inbox (${n})`,
  };
}
