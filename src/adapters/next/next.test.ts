/**
 * a2a-kit/next: the route handlers called as Next.js calls them, with real `Request` objects
 * (Next.js itself is not needed): card URLs under the base path, both bindings, an SSE stream
 * read to its end, trusted X-Forwarded-*, the body limit.
 */
import { describe, expect, it } from 'vitest';
import {
  echoAgent,
  expectCompletedStream,
  interfaceUrls,
  jsonRpcSend,
  jsonRpcStream,
  restSend,
  V,
} from '../../../test/helpers/adapter-checks.js';
import { a2aRouteHandlers } from './index.js';

/** A fetch that goes to the route handler of the request's method, as Next.js routes them. */
function routed(handlers: ReturnType<typeof a2aRouteHandlers>) {
  return (url: string, init?: RequestInit) => {
    const request = new Request(url, init);
    return handlers[request.method as 'GET' | 'POST'](request);
  };
}

describe('a2aRouteHandlers', () => {
  const base = 'https://app.example.com/api/a2a';

  it('serves the card with basePath in its URLs, both bindings and SSE', async () => {
    const fetchFn = routed(a2aRouteHandlers(echoAgent, { basePath: '/api/a2a' }));
    expect(await interfaceUrls(base, {}, fetchFn)).toEqual([
      `${base}/a2a/jsonrpc`,
      `${base}/a2a/rest`,
    ]);
    expect(await jsonRpcSend(base, 'application/json', fetchFn)).toBe('TASK_STATE_COMPLETED');
    expect(await restSend(base, fetchFn)).toBe('TASK_STATE_COMPLETED');
    expectCompletedStream(await jsonRpcStream(base, fetchFn));
  });

  it('uses X-Forwarded-* only with trustProxy', async () => {
    const forwarded = { 'x-forwarded-host': 'agent.example.com', 'x-forwarded-proto': 'https' };
    const plain = routed(a2aRouteHandlers(echoAgent, { basePath: '/api/a2a' }));
    expect((await interfaceUrls(base, forwarded, plain))[0]).toBe(`${base}/a2a/jsonrpc`);
    const trusted = routed(a2aRouteHandlers(echoAgent, { basePath: '/api/a2a', trustProxy: true }));
    expect((await interfaceUrls(base, forwarded, trusted))[0]).toBe(
      'https://agent.example.com/api/a2a/a2a/jsonrpc',
    );
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const { POST } = a2aRouteHandlers(echoAgent, { basePath: '/api/a2a', maxBodyBytes: 1024 });
    const res = await POST(
      new Request(`${base}/a2a/rest/message:send`, {
        method: 'POST',
        headers: { ...V, 'content-type': 'application/a2a+json' },
        body: JSON.stringify({ message: { text: 'x'.repeat(4096) } }),
      }),
    );
    expect(res.status).toBe(413);
  });
});
