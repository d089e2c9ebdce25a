import type { HostConfigProvider } from '../ui-api/service-api.js';

/** Placeholder until the connect module lands: lists nothing, writes nothing. */
export function defaultHostConfigProvider(): HostConfigProvider {
  return {
    list: () => [],
    write: () => {
      throw new Error('connect is not built yet');
    },
  };
}
