/**
 * a2a-kit/express against the real Express 5 and Express 4 packages over HTTP on 127.0.0.1:
 * mounted before and after express.json(), under a mount path (card URLs carry it), next() for
 * other paths, X-Forwarded-* only when trusted, the body limit, and SSE streaming.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import {
  echoAgent,
  expectCompletedStream,
  interfaceUrls,
  jsonRpcSend,
  jsonRpcStream,
  openAndDropStream,
  releaseHeld,
  restSend,
  untilAborted,
  V,
} from '../../../test/helpers/adapter-checks.js';
import { a2aExpress, type A2AExpressOptions } from './index.js';

type AppOf = (mount: string, jsonFirst: boolean, options?: A2AExpressOptions) => unknown;

// Both majors expose the same calls; the app is built with each one's own package.
const versions: Record<string, AppOf> = {
  'Express 5': (mount, jsonFirst, options = {}) => {
    const app = express5();
    if (jsonFirst) app.use(express5.json());
    app.use(mount, a2aExpress(echoAgent, options));
    if (!jsonFirst) app.use(express5.json());
    app.post(`${mount === '/' ? '' : mount}/other`, (req, res) => {
      res.json({ other: true, body: req.body as unknown });
    });
    return app;
  },
  'Express 4': (mount, jsonFirst, options = {}) => {
    const app = express4();
    if (jsonFirst) app.use(express4.json());
    app.use(mount, a2aExpress(echoAgent, options) as unknown as express4.RequestHandler);
    if (!jsonFirst) app.use(express4.json());
    app.post(`${mount === '/' ? '' : mount}/other`, (req, res) => {
      res.json({ other: true, body: req.body as unknown });
    });
    return app;
  },
};

let server: Server | undefined;
afterEach(async () => {
  releaseHeld();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(app: unknown): Promise<string> {
  const listener = app as { listen(port: number, host: string, cb: () => void): Server };
  await new Promise<void>((resolve) => {
    server = listener.listen(0, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

describe.each(Object.entries(versions))('%s', (_, appOf) => {
  it.each([true, false])(
    'mounted at /agents/x (express.json() first: %s): card URLs, both bindings, SSE, next()',
    async (jsonFirst) => {
      const origin = await listen(appOf('/agents/x', jsonFirst));
      const base = `${origin}/agents/x`;
      expect(await interfaceUrls(base)).toEqual([`${base}/a2a/jsonrpc`, `${base}/a2a/rest`]);
      // application/json is what express.json() parses: the parsed body is reused.
      expect(await jsonRpcSend(base, 'application/json')).toBe('TASK_STATE_COMPLETED');
      expect(await jsonRpcSend(base, 'application/a2a+json')).toBe('TASK_STATE_COMPLETED');
      expect(await restSend(base)).toBe('TASK_STATE_COMPLETED');
      expectCompletedStream(await jsonRpcStream(base));
      // A path that is not A2A's reaches the next route, body intact.
      const other = await fetch(`${base}/other`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kept: 1 }),
      });
      expect(await other.json()).toEqual({ other: true, body: { kept: 1 } });
      // The card lives under the mount path only.
      expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(404);
    },
  );

  it('at the root, X-Forwarded-* are ignored unless trustProxy, then used', async () => {
    const forwarded = {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'agent.example.com',
      'x-forwarded-prefix': '/edge',
    };
    const origin = await listen(appOf('/', true));
    expect(await interfaceUrls(origin, forwarded)).toEqual([
      `${origin}/a2a/jsonrpc`,
      `${origin}/a2a/rest`,
    ]);
    await new Promise((resolve) => server?.close(resolve));
    const trusted = await listen(appOf('/agents/x', true, { trustProxy: true }));
    expect(await interfaceUrls(`${trusted}/agents/x`, forwarded)).toEqual([
      'https://agent.example.com/edge/agents/x/a2a/jsonrpc',
      'https://agent.example.com/edge/agents/x/a2a/rest',
    ]);
  });

  it('a client that goes away aborts the request signal', async () => {
    let signal: AbortSignal | undefined;
    const base = await listen(
      appOf('/', false, {
        middleware: [
          (operation, params, call, next) => {
            signal = call.signal;
            return next(params);
          },
        ],
      }),
    );
    await openAndDropStream(base);
    await untilAborted(() => signal);
    releaseHeld();
  });

  it('refuses a body over maxBodyBytes with 413 (raw stream, before express.json())', async () => {
    const base = await listen(appOf('/', false, { maxBodyBytes: 1024 }));
    const res = await fetch(`${base}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { ...V, 'content-type': 'application/a2a+json' },
      body: JSON.stringify({ message: { text: 'x'.repeat(4096) } }),
    });
    expect(res.status).toBe(413); // HTTP+JSON: the catalog's status of PAYLOAD_TOO_LARGE
  });
});
