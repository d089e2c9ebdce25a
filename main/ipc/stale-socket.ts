/**
 * Is someone already listening where the server wants to? A crashed app leaves its socket file
 * behind; a running one answers.
 */
import { connect } from 'node:net';

export type EndpointProbe =
  | { state: 'live' }
  /** No file, or a file nobody listens on: safe to remove and listen. */
  | { state: 'absent' }
  /** Neither answered nor refused: not safe to take over. */
  | { state: 'unclear'; reason: string };

const PROBE_TIMEOUT_MS = 1_000;

export function probeEndpoint(path: string): Promise<EndpointProbe> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (result: EndpointProbe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ state: 'unclear', reason: `no answer within ${PROBE_TIMEOUT_MS} ms` }), PROBE_TIMEOUT_MS);
    socket.once('connect', () => done({ state: 'live' }));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') done({ state: 'absent' });
      else done({ state: 'unclear', reason: error.code ?? error.message });
    });
  });
}
