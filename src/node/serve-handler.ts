/**
 * Serves any A2A HTTP handler (e.g. `createA2AHandler(proxyService(client))`) on node:http with
 * the connection limits of serve(): for services that are not an A2AServer, such as the gateway of
 * `a2a serve --proxy`.
 */
import { createServer } from 'node:http';
import type { HttpHandler } from '../http/types.js';
import { toNodeListener } from './listener.js';

/** A running handler server. */
export interface HandlerServer {
  /** `http://host:port`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0: any free one) with `handler`. */
export async function serveHandler(
  handler: HttpHandler,
  options: { port?: number | undefined; host?: string | undefined } = {},
): Promise<HandlerServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
