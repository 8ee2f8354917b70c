/**
 * a2a-kit/hono against the real Hono 4 package, served over HTTP on 127.0.0.1 by
 * @hono/node-server: app.route() and app.mount() under a path (card URLs carry it), other routes
 * still reached, trusted X-Forwarded-*, the body limit, SSE streaming and client disconnects.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
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
import { a2aFetch, a2aHono } from './index.js';

let server: ServerType | undefined;
afterEach(async () => {
  releaseHeld();
  if (server && 'closeAllConnections' in server) server.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

function listen(app: Hono): Promise<string> {
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

describe('a2a-kit/hono', () => {
  it('app.route("/agents/x", a2aHono(agent)): card URLs, both bindings, SSE, other routes', async () => {
    const app = new Hono();
    app.route('/agents/x', a2aHono(echoAgent));
    app.get('/agents/x/other', (c) => c.json({ other: true }));
    const origin = await listen(app);
    const base = `${origin}/agents/x`;
    expect(await interfaceUrls(base)).toEqual([`${base}/a2a/jsonrpc`, `${base}/a2a/rest`]);
    expect(await jsonRpcSend(base)).toBe('TASK_STATE_COMPLETED');
    expect(await restSend(base)).toBe('TASK_STATE_COMPLETED');
    expectCompletedStream(await jsonRpcStream(base));
    expect(await (await fetch(`${base}/other`)).json()).toEqual({ other: true });
    expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('app.mount("/m", a2aFetch(agent, { basePath: "/m" })) and trusted X-Forwarded-*', async () => {
    const app = new Hono();
    app.mount('/m', a2aFetch(echoAgent, { basePath: '/m', trustProxy: true }));
    const origin = await listen(app);
    expect(await interfaceUrls(`${origin}/m`)).toEqual([
      `${origin}/m/a2a/jsonrpc`,
      `${origin}/m/a2a/rest`,
    ]);
    const forwarded = {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'agent.example.com',
      'x-forwarded-prefix': '/edge',
    };
    expect(await interfaceUrls(`${origin}/m`, forwarded)).toEqual([
      'https://agent.example.com/edge/m/a2a/jsonrpc',
      'https://agent.example.com/edge/m/a2a/rest',
    ]);
    expect(await jsonRpcSend(`${origin}/m`)).toBe('TASK_STATE_COMPLETED');
  });

  it('X-Forwarded-* are ignored without trustProxy', async () => {
    const app = new Hono();
    app.route('/', a2aHono(echoAgent));
    const origin = await listen(app);
    const urls = await interfaceUrls(origin, { 'x-forwarded-host': 'evil.example.com' });
    expect(urls).toEqual([`${origin}/a2a/jsonrpc`, `${origin}/a2a/rest`]);
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const app = new Hono();
    app.route('/', a2aHono(echoAgent, { maxBodyBytes: 1024 }));
    const origin = await listen(app);
    const res = await fetch(`${origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { ...V, 'content-type': 'application/a2a+json' },
      body: JSON.stringify({ message: { text: 'x'.repeat(4096) } }),
    });
    expect(res.status).toBe(413);
  });

  it('a client that goes away aborts the request signal', async () => {
    let signal: AbortSignal | undefined;
    const app = new Hono();
    app.route(
      '/',
      a2aHono(echoAgent, {
        middleware: [
          (operation, params, call, next) => {
            signal = call.signal;
            return next(params);
          },
        ],
      }),
    );
    const origin = await listen(app);
    await openAndDropStream(origin);
    await untilAborted(() => signal);
  });
});
