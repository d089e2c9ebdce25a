import type { NuzoApi } from '../../../main/ui-api/contract';
import { createHttpApi, type HttpNuzoApi } from './http-client';

declare global {
  interface Window {
    /** Exposed by the Electron preload through contextBridge. */
    nuzo?: NuzoApi;
  }
}

export interface ApiHandle {
  api: NuzoApi;
  transport: 'electron' | 'http';
  /** Only the HTTP transport can lose its event stream independently of the page. */
  link: HttpNuzoApi['onLinkState'] | null;
}

export function getApi(): ApiHandle {
  if (window.nuzo !== undefined) return { api: window.nuzo, transport: 'electron', link: null };
  const http = createHttpApi();
  return { api: http, transport: 'http', link: http.onLinkState };
}
