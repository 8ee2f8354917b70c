import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyText as readText } from '../http/body.js';
import type { HttpHandler, HttpRequest, HttpResponse } from '../http/types.js';
import { StepIterator } from '../core/ready-iterator.js';
import { onSocketWrites } from '../../test/support/socket-writes.js';
import { toNodeListener } from './listener.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: HttpHandler, maxBodyBytes = 1024): Promise<number> {
  const server = createServer(toNodeListener(handler, { maxBodyBytes }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(5);
  expect(check()).toBe(true);
}

describe('toNodeListener', () => {
  it('passes method, url, headers and the body bytes, and writes status, headers and body', async () => {
    let seen: HttpRequest | undefined;
    let bodyText: unknown;
    const port = await listen(async (req) => {
      seen = req;
      bodyText = readText(req, 1024);
      return {
        status: 201,
        headers: { 'content-type': 'application/json', 'x-a': 'b' },
        body: '{"ü":1}',
      };
    });
    const res = await new Promise<IncomingMessage>((resolve) => {
      const req = request(
        { port, method: 'POST', path: '/p?q=1', headers: { 'X-Test': 'yes' } },
        resolve,
      );
      req.end('{"héllo":true}');
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-a']).toBe('b');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength('{"ü":1}')));
    expect(await readAll(res)).toBe('{"ü":1}');
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/p?q=1');
    expect(seen?.headers.get('x-test')).toBe('yes');
    expect(bodyText).toBe('{"héllo":true}');
    expect(seen?.bodyTooLarge).toBe(false);
  });

  it('gives no body for a GET without one', async () => {
    let body: unknown = 'unset';
    const port = await listen(async (req) => {
      body = req.body;
      return { status: 204, headers: {}, body: undefined };
    });
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    expect(res.statusCode).toBe(204);
    expect(body).toBeUndefined();
  });

  it('[205] answers at once, without reading, when Content-Length is over the limit', async () => {
    let seen: HttpRequest | undefined;
    const port = await listen(async (req) => {
      seen = req;
      return { status: 413, headers: {}, body: 'too large' };
    });
    // The body is never sent: the answer must come from the declared length alone.
    const res = await new Promise<IncomingMessage>((resolve) => {
      const req = request(
        { port, method: 'POST', headers: { 'content-length': '1000000' } },
        resolve,
      );
      req.on('error', () => undefined);
      req.flushHeaders();
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(seen?.bodyTooLarge).toBe(true);
    expect(seen?.body).toBeUndefined();
  });

  it('[205] stops reading a chunked body as soon as it passes the limit', async () => {
    let seen: HttpRequest | undefined;
    const port = await listen(async (req) => {
      seen = req;
      return { status: 413, headers: {}, body: 'too large' };
    }, 1000);
    const res = await new Promise<IncomingMessage>((resolve) => {
      const req = request({ port, method: 'POST' }, resolve); // chunked: no length
      req.on('error', () => undefined);
      req.write('x'.repeat(600));
      setTimeout(() => req.write('x'.repeat(600)), 20); // passes the limit; never ended
    });
    expect(res.statusCode).toBe(413);
    expect(seen?.bodyTooLarge).toBe(true);
  });

  it('writes streamed chunks as they come', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* body(): AsyncGenerator<string> {
      yield 'data: 1\n\n';
      await gate;
      yield 'data: 2\n\n';
    }
    const port = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: body(),
    }));
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    res.setEncoding('utf8');
    const first = await new Promise<string>((resolve) => res.once('data', resolve));
    expect(first).toBe('data: 1\n\n'); // arrived while the stream is still open
    release();
    expect(await readAll(res)).toBe('data: 2\n\n');
  });

  it('writes a stream that ends within one burst, its last chunk included, in one socket write', async () => {
    async function* body(): AsyncGenerator<string> {
      yield 'data: 1\n\n';
      yield 'data: 2\n\n';
    }
    const server = createServer(
      toNodeListener(async () => ({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: body(),
      })),
    );
    servers.push(server);
    const writes: number[] = [];
    onSocketWrites(server, (chunks) => writes.push(chunks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    expect(await readAll(res)).toBe('data: 1\n\ndata: 2\n\n');
    // Head, the two frames and the terminating chunk of the chunked encoding: one write.
    expect(writes).toHaveLength(1);
  });

  it('writes the frames of one burst as one chunk, and opens a stream with no event yet at once', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* body(): AsyncGenerator<string> {
      await gate; // nothing to send yet: the head alone opens the stream
      yield 'data: 1\n\n';
      yield 'data: 2\n\n';
    }
    const port = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: body(),
    }));
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (raw += chunk));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await until(() => raw.includes('\r\n\r\n'));
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw.endsWith('\r\n\r\n')).toBe(true); // the head only, before any event
    const head = raw.length;
    release();
    await new Promise((resolve) => socket.once('end', resolve));
    // 18 bytes (0x12): both frames in one chunk of the chunked encoding, then its end.
    expect(raw.slice(head)).toBe('12\r\ndata: 1\n\ndata: 2\n\n\r\n0\r\n\r\n');
  });

  it('writes a stream whose frames are all ready as one sized reply (no chunked framing)', async () => {
    const frames = ['data: 1\n\n', 'data: é\n\n'];
    const port = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      // nextReady(): every frame is there
      body: new StepIterator<string>(
        (function* () {
          yield* frames;
        })(),
      ),
    }));
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(frames.join(''))));
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(await readAll(res)).toBe(frames.join(''));
  });

  it('writes the ready frames of a stream at once, then the rest as it comes', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const port = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: new StepIterator<string>(
        (function* () {
          yield 'data: 1\n\n';
          yield gate;
          yield 'data: 2\n\n';
        })(),
      ),
    }));
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    expect(res.headers['transfer-encoding']).toBe('chunked');
    res.setEncoding('utf8');
    const first = await new Promise<string>((resolve) => res.once('data', resolve));
    expect(first).toBe('data: 1\n\n'); // not held back for the rest
    release();
    expect(await readAll(res)).toBe('data: 2\n\n');
  });

  it('ends a stream without any event at once (head and end of the chunked body only)', async () => {
    async function* body(): AsyncGenerator<string> {
      // ends before its first flush
    }
    const port = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: body(),
    }));
    const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(await readAll(res)).toBe('');
  });

  it('leaves a kept-alive socket uncorked after a stream: the next reply on it is sent', async () => {
    let count = 0;
    const port = await listen(async () => {
      count++;
      if (count === 1) {
        async function* body(): AsyncGenerator<string> {
          yield 'data: 1\n\n';
        }
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: body() };
      }
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'second' };
    });
    let connections = 0;
    servers.at(-1)?.on('connection', () => connections++);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const get = () =>
        new Promise<IncomingMessage>((resolve) => request({ port, agent }, resolve).end());
      const [first, second] = [get(), get()]; // the second waits for the socket of the first
      expect(await readAll(await first)).toBe('data: 1\n\n');
      expect(await readAll(await second)).toBe('second');
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('on client disconnect aborts the signal and stops the stream', async () => {
    let signal: AbortSignal | undefined;
    let returned = false;
    const body: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => {
        let sent = false;
        return {
          next: () =>
            sent
              ? new Promise<IteratorResult<string>>(() => undefined)
              : ((sent = true), Promise.resolve({ done: false, value: ': hi\n\n' })),
          return: async () => {
            returned = true;
            return { done: true as const, value: undefined };
          },
        };
      },
    };
    const port = await listen(async (req) => {
      signal = req.signal;
      return { status: 200, headers: {}, body };
    });
    const req = request({ port });
    req.on('error', () => undefined);
    const res = await new Promise<IncomingMessage>((resolve) => req.on('response', resolve).end());
    await new Promise((resolve) => res.once('data', resolve));
    req.destroy();
    for (let i = 0; i < 50 && !(returned && signal?.aborted); i++) await sleep(10);
    expect(signal?.aborted).toBe(true);
    expect(returned).toBe(true);
  });

  it('gives a handler that reads the signal only after the client left an aborted signal', async () => {
    let signal: AbortSignal | undefined;
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const port = await listen(async (req) => {
      entered();
      await sleep(100); // the client disconnects meanwhile; nothing has read the signal yet
      signal = req.signal;
      return { status: 200, headers: {}, body: 'late' };
    });
    const req = request({ port, method: 'POST', headers: { 'content-length': '2' } });
    req.on('error', () => undefined);
    req.end('{}');
    await inside;
    req.destroy();
    for (let i = 0; i < 50 && signal === undefined; i++) await sleep(10);
    expect(signal?.aborted).toBe(true);
  });

  it('honours backpressure: a client that does not read stops the producer', async () => {
    let produced = 0;
    const chunk = 'x'.repeat(64 * 1024);
    async function* body(): AsyncGenerator<string> {
      for (;;) {
        produced++;
        yield chunk;
      }
    }
    const port = await listen(async () => ({ status: 200, headers: {}, body: body() }));
    const req = request({ port });
    req.on('error', () => undefined);
    const res = await new Promise<IncomingMessage>((resolve) => req.on('response', resolve).end());
    res.pause();
    await sleep(300);
    const early = produced;
    await sleep(200);
    expect(produced).toBe(early); // stalled, not growing memory
    expect(produced).toBeLessThan(1000); // far below 64 MB
    req.destroy();
  });

  it('answers a throwing handler with a generic 500', async () => {
    const port = await listen(async (): Promise<HttpResponse> => {
      throw new Error('internal detail');
    });
    const original = console.error;
    console.error = () => undefined;
    try {
      const res = await new Promise<IncomingMessage>((resolve) => request({ port }, resolve).end());
      expect(res.statusCode).toBe(500);
      const text = await readAll(res);
      expect(text).not.toContain('internal detail');
      expect(JSON.parse(text)).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    } finally {
      console.error = original;
    }
  });
});
