/**
 * Fixtures of the push tests: a scripted webhook on 127.0.0.1 that records every request and
 * answers as told (status, headers, hang, reset), a notifier tuned for fast tests, and waiting.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPushNotifier, type PushNotifierOptions } from '../../src/push/index.js';
import type { PushDeliveryOutcome } from '../../src/push/worker.js';

/** One request the webhook received. */
export interface WebhookCall {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the webhook answers one request. */
export type WebhookAnswer = { status: number; headers?: Record<string, string> } | 'hang' | 'reset';

/** A scripted webhook; `answer` is asked for each request (index from 0). */
export async function startWebhook(
  answer: (call: WebhookCall, index: number) => WebhookAnswer = () => ({ status: 200 }),
) {
  const calls: WebhookCall[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      calls.push(call);
      const reply = answer(call, calls.length - 1);
      if (reply === 'hang') return void hanging.push(res);
      if (reply === 'reset') return void req.socket.destroy();
      res.writeHead(reply.status, reply.headers ?? {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function waitFor(check: () => boolean, timeoutMs = 5_000, what = 'condition') {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A notifier for tests: loopback allowed, short delays, outcomes recorded in `outcomes`. */
export function testNotifier(options: PushNotifierOptions) {
  const outcomes: PushDeliveryOutcome[] = [];
  const notifier = createPushNotifier({
    allowHosts: ['127.0.0.1'],
    timeoutMs: 2_000,
    pollIntervalMs: 25,
    logger: null,
    ...options,
    retry: { baseDelayMs: 5, maxDelayMs: 40, ...options.retry },
    onDelivery: (o) => {
      outcomes.push(o);
      options.onDelivery?.(o);
    },
  });
  return { notifier, outcomes };
}
