/**
 * The window's preload: exposes exactly one object, `window.nuzo`, implementing NuzoApi over two
 * IPC channels. Sandboxed preloads cannot load ES modules, so scripts/bundle-bridge.mjs bundles
 * this file (and api-methods.ts) into dist/electron/preload.cjs; tsc only type-checks it. Types
 * only from elsewhere: nothing else of the app may end up in the renderer process.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiEvent, NuzoApi } from '../ui-api/contract.js';
import type { CallResult } from './call-gate.js';
import { API_METHODS, CALL_CHANNEL, EVENT_CHANNEL } from './api-methods.js';

function method(name: string): (params?: unknown) => Promise<unknown> {
  return async (params) => {
    const answer = (await ipcRenderer.invoke(CALL_CHANNEL, name, params ?? {})) as CallResult;
    if (answer.ok) return answer.result;
    // A plain object keeps code and details across contextBridge; an Error would keep only its message.
    throw { code: answer.error.code, message: answer.error.message, details: answer.error.details ?? {} };
  };
}

function subscribe(listener: (event: ApiEvent) => void): () => void {
  // The IPC event object stays here: it carries the ipcRenderer handle.
  const relay = (_event: IpcRendererEvent, payload: ApiEvent): void => listener(payload);
  ipcRenderer.on(EVENT_CHANNEL, relay);
  return () => void ipcRenderer.removeListener(EVENT_CHANNEL, relay);
}

const api = { ...Object.fromEntries(API_METHODS.map((name) => [name, method(name)])), subscribe } as unknown as NuzoApi;

contextBridge.exposeInMainWorld('nuzo', api);
