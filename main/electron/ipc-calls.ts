/**
 * `nuzo:call`: the window's only way in. The sender is checked first (our window's top frame on
 * app://nuzo), then method and params against the HTTP adapter's zod schemas, then the call
 * goes to the service process. Answers are envelopes: thrown errors would lose their code when
 * crossing contextBridge.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { CALL_CHANNEL } from './api-methods.js';
import { checkCall, SENDER_REFUSED, type CallResult } from './call-gate.js';
import { senderAllowed } from './sender-check.js';
import type { ServiceClient } from './service-client.js';

function fromOurWindow(event: IpcMainInvokeEvent, win: BrowserWindow | null): boolean {
  const frame = event.senderFrame;
  const top = event.sender.mainFrame;
  const isTopFrame = frame !== null && frame.parent === null && frame.processId === top.processId && frame.routingId === top.routingId;
  const windowId = win && !win.isDestroyed() ? win.webContents.id : null;
  return senderAllowed({ frameUrl: frame?.url, isTopFrame, senderId: event.sender.id, windowId });
}

export function handleWindowCalls(getWindow: () => BrowserWindow | null, service: ServiceClient, log: (line: string) => void): void {
  ipcMain.handle(CALL_CHANNEL, async (event, method: unknown, params: unknown): Promise<CallResult> => {
    if (!fromOurWindow(event, getWindow())) {
      log(`nuzo: refused an API call from ${event.senderFrame?.url ?? 'a closed frame'}`);
      return SENDER_REFUSED;
    }
    const checked = checkCall(method, params);
    if (!checked.ok) return checked;
    return service.call(checked.method, checked.params);
  });
}
