import { describe, expect, it } from 'vitest';
import { toFetchHandler } from './fetch.js';
import type { HttpRequest, HttpResponse } from './types.js';

describe('toFetchHandler', () => {
  it('passes path+query, headers, origin, body text and signal; returns status, headers and body', async () => {
    let seen: HttpRequest | undefined;
    let text = '';
    const fetchHandler = toFetchHandler(async (req) => {
      seen = req;
      text = new TextDecoder().decode(req.body as Uint8Array);
      return {
        status: 200,
        headers: { 'content-type': 'application/json', connection: 'keep-alive' },
        body: '{"a":1}',
      };
    });
    const res = await fetchHandler(
      new Request('https://agent.test:8443/a2a/rest/tasks?x=1', {
        method: 'POST',
        headers: { 'A2A-Version': '1.0' },
        body: '{"é":1}',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('connection')).toBeNull();
    expect(await res.text()).toBe('{"a":1}');
    expect(seen?.url).toBe('/a2a/rest/tasks?x=1');
    expect(seen?.origin).toBe('https://agent.test:8443');
    expect(seen?.headers.get('a2a-version')).toBe('1.0');
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(text).toBe('{"é":1}');
  });

  it('[205] stops reading a body past the limit and tells the handler', async () => {
    let seen: HttpRequest | undefined;
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(100));
      },
    });
    const fetchHandler = toFetchHandler(
      async (req) => {
        seen = req;
        return { status: 413, headers: {}, body: '' };
      },
      { maxBodyBytes: 1000 },
    );
    const res = await fetchHandler(
      new Request('http://h/a2a/jsonrpc', {
        method: 'POST',
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(seen?.bodyTooLarge).toBe(true);
    expect(seen?.body).toBeUndefined();
    expect(pulled).toBeLessThan(20);
  });

  it('streams an iterable body and stops the source when the reader cancels', async () => {
    let returned = false;
    const source: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => {
        let n = 0;
        return {
          next: async () => ({ done: false, value: `data: ${++n}\n\n` }),
          return: async () => {
            returned = true;
            return { done: true as const, value: undefined };
          },
        };
      },
    };
    const fetchHandler = toFetchHandler(async (): Promise<HttpResponse> => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: source,
    }));
    const res = await fetchHandler(new Request('http://h/x'));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: 1\n\n');
    await reader.cancel();
    expect(returned).toBe(true);
  });

  it('answers 304 with no body', async () => {
    const fetchHandler = toFetchHandler(async () => ({
      status: 304,
      headers: { etag: '"x"' },
      body: undefined,
    }));
    const res = await fetchHandler(new Request('http://h/.well-known/agent-card.json'));
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe('"x"');
    expect(res.body).toBeNull();
  });
});
