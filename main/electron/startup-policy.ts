/**
 * Whether the window shows at launch. It always shows on the first run and whenever a person
 * starts the app: some Linux desktops have no tray, so a hidden start would look like nothing
 * happened. It stays hidden only for starts nobody asked to see: at login, or by a bridge.
 */
export const HIDDEN_FLAG = '--hidden';

export interface LaunchFacts {
  argv: readonly string[];
  firstRun: boolean;
  /** macOS: app.getLoginItemSettings().wasOpenedAtLogin */
  openedAtLogin: boolean;
}

export function showWindowOnLaunch(facts: LaunchFacts): boolean {
  if (facts.firstRun) return true;
  return !(facts.openedAtLogin || facts.argv.includes(HIDDEN_FLAG));
}
