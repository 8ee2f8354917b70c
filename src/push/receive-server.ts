/**
 * A ready webhook on node:http: verifies each delivery with `createPushReceiver()` and hands the
 * event to `onEvent`. Answers 204 when accepted (spec §4.3.3: 2xx acknowledges), the receiver's
 * status when refused (401/400/403/409; 503 when the agent's keys cannot be fetched, so the
 * agent retries), 500 when `onEvent` throws (the agent retries). For tests and `a2a push receive`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PushRejected,
  createPushReceiver,
  type PushReceiverOptions,
  type VerifiedPush,
} from './receiver.js';

/** Options of {@link receivePushNotifications}. */
export interface ReceivePushOptions extends PushReceiverOptions {
  /** Port to listen on (default 0: any free port). */
  readonly port?: number | undefined;
  /** Interface to bind (default 127.0.0.1). */
  readonly host?: string | undefined;
  /** Only this path accepts deliveries (default any path). */
  readonly path?: string | undefined;
  /** Largest accepted body (default 1 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Each verified notification. */
  readonly onEvent: (push: VerifiedPush) => void | Promise<void>;
  /** Each refused delivery. */
  readonly onReject?: ((error: PushRejected) => void) | undefined;
}

/** A listening webhook. */
export interface PushReceiverServer {
  /** `http://host:port` (add your path). */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/** Starts a webhook that verifies and reports push notifications. */
export async function receivePushNotifications(
  options: ReceivePushOptions,
): Promise<PushReceiverServer> {
  const receiver = createPushReceiver(options);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const server = createServer((req, res) => {
    const reply = (status: number, body?: object) => {
      if (res.headersSent) return;
      res.writeHead(status, body ? { 'content-type': 'application/json' } : {});
      res.end(body ? JSON.stringify(body) : undefined);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST') return reply(405, { error: 'use POST' });
    if (options.path !== undefined && path !== options.path) return reply(404, { error: 'no' });
    readBody(req, maxBody)
      .then(async (body) => {
        if (body === undefined) return reply(413, { error: 'body too large' });
        let push: VerifiedPush;
        try {
          const url =
            options.audience ?? `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
          push = await receiver.verify({ headers: req.headers, body, url });
        } catch (error) {
          if (!(error instanceof PushRejected)) throw error;
          options.onReject?.(error);
          return reply(error.status, { error: error.reason, message: error.message });
        }
        await options.onEvent(push);
        reply(204);
      })
      .catch(() => reply(500, { error: 'INTERNAL' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    // Answers being written finish first; whatever is still open after a second is cut.
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), 1_000);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** The whole body, or undefined when it is larger than `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? undefined : new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}
