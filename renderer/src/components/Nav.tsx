import type { Facets, SettingsView } from '../../../main/ui-api/contract';
import { SCREENS, type ScreenId } from '../routes';
import { Icon, type IconName } from './Icon';

const ICONS: Record<ScreenId, IconName> = {
  inbox: 'inbox',
  memories: 'list',
  activity: 'activity',
  connections: 'link',
  connect: 'plug',
  settings: 'settings',
};

interface NavProps {
  current: ScreenId;
  onGo(screen: ScreenId): void;
  counts: Facets['counts'] | null;
  settings: SettingsView | null;
}

export function Nav({ current, onGo, counts, settings }: NavProps) {
  return (
    <nav className="nav" aria-label="Screens">
      <div className="nav-brand">
        <span className="nav-logo" aria-hidden="true">
          N
        </span>
        <span>Nuzo</span>
      </div>
      <ul className="nav-list">
        {SCREENS.map((screen) => {
          // Only the inbox count asks for attention; the memory total lives on its own screen.
          const badge = screen.id === 'inbox' ? counts?.pending : undefined;
          return (
            <li key={screen.id}>
              <a
                href={`#/${screen.id}`}
                className={`nav-item${current === screen.id ? ' nav-item-current' : ''}`}
                aria-current={current === screen.id ? 'page' : undefined}
                aria-keyshortcuts={screen.key}
                onClick={(event) => {
                  event.preventDefault();
                  onGo(screen.id);
                }}
              >
                <Icon name={ICONS[screen.id]} />
                <span className="nav-label">{screen.label}</span>
                {badge !== undefined && badge > 0 && (
                  <span className="nav-count" aria-label={`${badge} waiting`}>
                    {badge > 999 ? '999+' : badge}
                  </span>
                )}
                <kbd className="nav-key">{screen.key}</kbd>
              </a>
            </li>
          );
        })}
      </ul>
      <div className="nav-foot">
        {settings?.capture_paused === true && (
          <button type="button" className="nav-paused" onClick={() => onGo('settings')}>
            <Icon name="pause" /> Capture paused
          </button>
        )}
        <span className="nav-hint">
          Press <kbd>?</kbd> for keys
        </span>
      </div>
    </nav>
  );
}
