/** `GET /api/events`: the service's live events as server-sent events. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NuzoApi } from './contract.js';

export const HEARTBEAT_MS = 15_000;

/** Streams events until the client goes away; returns a function that ends the stream early. */
export function streamEvents(req: IncomingMessage, res: ServerResponse, api: NuzoApi, log: (line: string) => void): () => void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  // Tell EventSource how soon to come back after a restart of the service.
  res.write('retry: 2000\n\n');

  let closed = false;
  let unsubscribe: () => void = () => undefined;
  const heartbeat = setInterval(() => {
    // A comment line: keeps idle proxies and sockets open and notices dead clients.
    if (!closed) res.write(': heartbeat\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const end = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    try {
      unsubscribe();
    } catch (error) {
      log(`ui: unsubscribe failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!res.writableEnded) res.end();
  };

  try {
    unsubscribe = api.subscribe((event) => {
      if (!closed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    });
  } catch (error) {
    log(`ui: subscribe failed: ${error instanceof Error ? error.message : String(error)}`);
    end();
    return end;
  }
  req.on('close', end);
  res.on('error', end);
  return end;
}
