/**
 * a2a-kit/fastify against the real Fastify 5 package over HTTP on 127.0.0.1: registered under a
 * prefix next to the app's own JSON routes (card URLs carry the prefix; the app's parsers stay
 * untouched outside the plugin's scope), application/a2a+json and JSON bodies, Fastify's
 * bodyLimit answered as the binding's PAYLOAD_TOO_LARGE, trusted X-Forwarded-*, SSE via a
 * hijacked reply, client disconnects.
 */
import Fastify, { type FastifyInstance } from 'fastify';
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
import { a2a, type A2AFastifyOptions } from './index.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  releaseHeld();
  await app?.close();
  app = undefined;
});

async function start(
  options: Omit<A2AFastifyOptions, 'agent'> = {},
  bodyLimit?: number,
): Promise<string> {
  app = Fastify(bodyLimit === undefined ? {} : { bodyLimit });
  await app.register(a2a, { agent: echoAgent, ...options });
  app.post('/other', async (request) => ({ other: true, body: request.body }));
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('a2a-kit/fastify', () => {
  it('under prefix /agents/x: card URLs, JSON and a2a+json bodies, SSE, the app’s own routes', async () => {
    const origin = await start({ prefix: '/agents/x' });
    const base = `${origin}/agents/x`;
    expect(await interfaceUrls(base)).toEqual([`${base}/a2a/jsonrpc`, `${base}/a2a/rest`]);
    expect(await jsonRpcSend(base, 'application/json')).toBe('TASK_STATE_COMPLETED');
    expect(await jsonRpcSend(base, 'application/a2a+json')).toBe('TASK_STATE_COMPLETED');
    expect(await restSend(base)).toBe('TASK_STATE_COMPLETED');
    expectCompletedStream(await jsonRpcStream(base));
    expect((await fetch(`${base}/other`)).status).toBe(404);
    // Outside the plugin's scope Fastify's JSON parser still parses.
    const other = await fetch(`${origin}/other`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kept: 1 }),
    });
    expect(await other.json()).toEqual({ other: true, body: { kept: 1 } });
  });

  it('answers a body over Fastify’s bodyLimit with the binding’s 413', async () => {
    const origin = await start({}, 1024);
    const res = await fetch(`${origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { ...V, 'content-type': 'application/a2a+json' },
      body: JSON.stringify({ message: { text: 'x'.repeat(4096) } }),
    });
    expect(res.status).toBe(413);
    expect(JSON.stringify(await res.json())).toContain('PAYLOAD_TOO_LARGE');
  });

  it('uses X-Forwarded-* only with trustProxy', async () => {
    const forwarded = { 'x-forwarded-host': 'agent.example.com', 'x-forwarded-proto': 'https' };
    const origin = await start({ prefix: '/p' });
    expect((await interfaceUrls(`${origin}/p`, forwarded))[0]).toBe(`${origin}/p/a2a/jsonrpc`);
    await app?.close();
    const trusted = await start({ prefix: '/p', trustProxy: true });
    expect((await interfaceUrls(`${trusted}/p`, forwarded))[0]).toBe(
      'https://agent.example.com/p/a2a/jsonrpc',
    );
  });

  it('a client that goes away aborts the request signal', async () => {
    let signal: AbortSignal | undefined;
    const origin = await start({
      middleware: [
        (operation, params, call, next) => {
          signal = call.signal;
          return next(params);
        },
      ],
    });
    await openAndDropStream(origin);
    await untilAborted(() => signal);
  });
});
