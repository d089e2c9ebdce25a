/**
 * The desktop app's main process. It stays thin: the service (store, consent, MCP socket) runs in
 * a utility process, the same code as `nuzo serve`; this file wires window, tray, notifications
 * and the IPC relay around it. The only code importing electron is under main/electron/.
 */
import { app, BrowserWindow, dialog, Menu } from 'electron';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataHome } from '../core/paths.js';
import type { ApiEvent, OfferView, SettingsView } from '../ui-api/contract.js';
import { EVENT_CHANNEL } from './api-methods.js';
import { installBridgeCopy, planAppBridge } from './app-bridge.js';
import { registerAppScheme, serveAppProtocol } from './app-protocol.js';
import { hardenApp } from './hardening.js';
import { handleWindowCalls } from './ipc-calls.js';
import { openedAtLogin, setStartAtLogin, startAtLoginEnabled } from './login-item.js';
import { notifyDraft } from './notifications.js';
import { noticeDue } from './draft-notice.js';
import { ServiceClient } from './service-client.js';
import { forkServiceProcess } from './service-process.js';
import { HIDDEN_FLAG, showWindowOnLaunch } from './startup-policy.js';
import { NuzoTray } from './tray.js';
import { trayText } from './tray-label.js';
import { createMainWindow, showInbox, showWindow } from './window.js';

const here = dirname(fileURLToPath(import.meta.url));
const paths = {
  renderer: join(here, '..', '..', 'renderer'),
  preload: join(here, '..', '..', 'electron', 'preload.cjs'),
  serviceEntry: join(here, 'service-entry.js'),
};
const log = (line: string): void => void process.stderr.write(line + '\n');

// Before ready, and before anything opens a file or a socket.
registerAppScheme();
app.enableSandbox();
const home = dataHome();
// Chromium's own files live beside the data, one shell folder per data folder, so the
// single-instance lock below means one app per data folder (DESIGN §1).
app.setPath('userData', join(home, 'shell'));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  run();
}

function run(): void {
  let win: BrowserWindow | null = null;
  let tray: NuzoTray | null = null;
  let quitting = false;
  const state = { pending: 0, capturePaused: false };

  const firstRunMarker = join(app.getPath('userData'), 'first-run-done');
  const firstRun = !existsSync(firstRunMarker);

  const bridgePlan = planAppBridge({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    resourcesPath: process.resourcesPath,
    appPath: app.getAppPath(),
    appImage: process.env['APPIMAGE'],
    stableDir: join(home, 'bridge'),
    platform: process.platform,
    env: process.env,
  });

  const render = (): void => {
    const text = trayText(state.pending, state.capturePaused);
    if (win && !win.isDestroyed()) win.setTitle(text.windowTitle);
    tray?.update({ ...state, startAtLogin: startAtLoginEnabled() });
  };

  const service = new ServiceClient({
    spawn: () => forkServiceProcess(paths.serviceEntry),
    init: { t: 'init', bridge: bridgePlan.bridge },
    log,
    onReady: ({ home: dataFolder, socketPath }) => {
      log(`nuzo: service ready on ${dataFolder} (socket ${socketPath})`);
      void refresh();
    },
    onEvent: (event) => onServiceEvent(event),
    onFatal: (error) => {
      dialog.showErrorBox('Nuzo cannot run', `${error.message}\n\n(${error.code})`);
      quitting = true;
      app.quit();
    },
  });

  // A burst of events (hooks capture after every tool) makes one refresh plus one follow-up.
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  const refresh = async (): Promise<void> => {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        const [inbox, settings] = await Promise.all([service.call('inbox', undefined), service.call('settings', undefined)]);
        if (inbox.ok) state.pending = (inbox.result as OfferView[]).filter((o) => o.state === 'pending').length;
        if (settings.ok) state.capturePaused = (settings.result as SettingsView).capture_paused;
        render();
      } while (refreshAgain);
    })().finally(() => (refreshing = null));
    return refreshing;
  };

  let lastNotice = Number.NEGATIVE_INFINITY;

  const onServiceEvent = (event: ApiEvent): void => {
    if (win && !win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
    if (event.type !== 'offer.created' && event.type !== 'offer.decided') return;
    void refresh();
    if (event.type === 'offer.created' && !(win?.isVisible() && win.isFocused()) && noticeDue(lastNotice, Date.now())) {
      lastNotice = Date.now();
      void service.call('offer', { offer_id: event.id }).then((answer) => {
        if (answer.ok) notifyDraft(answer.result as OfferView, () => win && showInbox(win));
      });
    }
  };

  // Someone started Nuzo again: show the window, unless that start was a bridge's (--hidden).
  app.on('second-instance', (_event, argv) => {
    if (win && !argv.includes(HIDDEN_FLAG)) showWindow(win);
  });
  // A tray app keeps running with its window closed.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => win && showWindow(win));
  let serviceStopped = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (serviceStopped) return;
    // Let the service close the database (WAL checkpoint) before the process goes.
    event.preventDefault();
    void service.stop().then(() => {
      serviceStopped = true;
      app.quit();
    });
  });

  void app.whenReady().then(() => {
    hardenApp(log);
    serveAppProtocol(paths.renderer, log);
    if (process.platform === 'darwin') Menu.setApplicationMenu(Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }]));
    else Menu.setApplicationMenu(null);
    try {
      installBridgeCopy(bridgePlan);
    } catch (error) {
      log(`nuzo: could not place the bridge for MCP hosts: ${error instanceof Error ? error.message : String(error)}`);
    }
    service.start();
    handleWindowCalls(() => win, service, log);

    win = createMainWindow({ preload: paths.preload, title: trayText(0).windowTitle, quitting: () => quitting });
    win.on('blur', () => void refresh());
    tray = new NuzoTray({
      open: () => win && showWindow(win),
      openInbox: () => win && showInbox(win),
      setCapturePaused: (paused) => void service.call('setCapturePaused', { paused }).then(refresh),
      setStartAtLogin: (enabled) => {
        try {
          setStartAtLogin(enabled);
        } catch (error) {
          log(`nuzo: could not change start at login: ${error instanceof Error ? error.message : String(error)}`);
        }
        render();
      },
      quit: () => {
        quitting = true;
        app.quit();
      },
    });
    render();

    if (showWindowOnLaunch({ argv: process.argv, firstRun, openedAtLogin: openedAtLogin() })) {
      win.once('ready-to-show', () => win && showWindow(win));
    }
    if (firstRun) {
      mkdirSync(dirname(firstRunMarker), { recursive: true, mode: 0o700 });
      writeFileSync(firstRunMarker, new Date().toISOString() + '\n', { mode: 0o600 });
    }
  });
}
