import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createHook, executionAsyncId, triggerAsyncId } from 'node:async_hooks';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { onSocketWrites } from '../../test/support/socket-writes.js';
import type { HttpHandler } from '../http/types.js';
import { toNodeListener } from './listener.js';
import { WriteCoalescer } from './write-coalescing.js';

const fail = (error: unknown) => {
  throw error;
};

describe('WriteCoalescer', () => {
  it('makes the other writes of the turn when one throws, and reports the error', () => {
    const flushes: Array<() => void> = [];
    const errors: unknown[] = [];
    const coalescer = new WriteCoalescer(
      (error) => errors.push(error),
      (flush) => flushes.push(flush),
    );
    const done: string[] = [];
    const broken = new Error('socket gone');
    coalescer.later(() => done.push('a'));
    coalescer.later(() => {
      throw broken;
    });
    coalescer.later(() => done.push('c'));
    flushes[0]?.();
    expect(done).toEqual(['a', 'c']);
    expect(errors).toEqual([broken]);
  });

  it('holds the writes of a turn and makes them together, in order, at one flush', () => {
    const flushes: Array<() => void> = [];
    const coalescer = new WriteCoalescer(fail, (flush) => flushes.push(flush));
    const done: string[] = [];
    coalescer.later(() => done.push('a'));
    coalescer.later(() => done.push('b'));
    expect(done).toEqual([]); // nothing leaves before the end of the turn
    expect(flushes).toHaveLength(1); // one flush for the whole turn
    flushes[0]?.();
    expect(done).toEqual(['a', 'b']);
  });

  it('gives a write made during a flush to the next flush', () => {
    const flushes: Array<() => void> = [];
    const coalescer = new WriteCoalescer(fail, (flush) => flushes.push(flush));
    const done: string[] = [];
    coalescer.later(() => {
      done.push('first');
      coalescer.later(() => done.push('next turn'));
    });
    flushes[0]?.();
    expect(done).toEqual(['first']);
    expect(flushes).toHaveLength(2);
    flushes[1]?.();
    expect(done).toEqual(['first', 'next turn']);
  });

  it('flushes at the end of the turn by default: after its I/O callbacks (turn-end.ts)', async () => {
    const coalescer = new WriteCoalescer(fail);
    const done: string[] = [];
    coalescer.later(() => done.push('write'));
    await Promise.resolve();
    expect(done).toEqual([]); // not on a microtask
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(['write']);
  });
});

describe('toNodeListener: replies leave at the end of the turn', () => {
  const servers: Server[] = [];
  const hooks: Array<{ disable(): unknown }> = [];
  afterEach(async () => {
    for (const hook of hooks.splice(0)) hook.disable();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** A node:http server on `toNodeListener(handler)`, listening on a free loopback port. */
  async function listen(handler: HttpHandler): Promise<{ server: Server; port: number }> {
    const server = createServer(toNodeListener(handler));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  /**
   * A server whose socket writes record where they were made: 'check' in an Immediate callback
   * or in a tick it queued (node:http ends a chunked write with `process.nextTick`), else 'other'.
   */
  async function spiedServer(
    body: () => string | AsyncIterable<string>,
  ): Promise<{ port: number; writers: string[] }> {
    const { server, port } = await listen(async () => ({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: body(),
    }));
    const writers: string[] = [];
    const immediates = new Set<number>();
    const hook = createHook({
      init: (id, type) => {
        if (type === 'Immediate') immediates.add(id);
      },
    }).enable();
    hooks.push(hook);
    const where = () =>
      immediates.has(executionAsyncId()) || immediates.has(triggerAsyncId()) ? 'check' : 'other';
    onSocketWrites(server, () => writers.push(where()));
    return { port, writers };
  }

  function get(port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      request({ port }, (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
  }

  it('writes a reply from the check phase (an Immediate), whole and once', async () => {
    const { port, writers } = await spiedServer(() => 'hello');
    expect(await get(port)).toBe('hello');
    expect(writers).toEqual(['check']);
  });

  it('keeps the order of pipelined replies on one connection (HTTP/1.1 §9.3.2)', async () => {
    // Each reply is held to the end of its turn; the later ones are made sooner than the first.
    const { port } = await listen(async (req) => {
      const n = req.url.slice(1);
      if (n === '1') await new Promise((resolve) => setTimeout(resolve, 20));
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `reply ${n};` };
    });
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (raw += chunk));
    const get = (n: number) => `GET /${n} HTTP/1.1\r\nHost: x\r\n\r\n`;
    socket.write(get(1) + get(2) + get(3));
    for (let i = 0; i < 200 && (raw.match(/reply \d;/g) ?? []).length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    socket.destroy();
    expect(raw.match(/reply \d;/g)).toEqual(['reply 1;', 'reply 2;', 'reply 3;']);
  });

  it('writes each SSE burst and the end of a stream from the check phase', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* frames(): AsyncGenerator<string> {
      yield 'data: 1\n\n';
      await gate;
      yield 'data: 2\n\n';
    }
    const { port, writers } = await spiedServer(() => frames());
    const reply = get(port);
    while (writers.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    expect(await reply).toBe('data: 1\n\ndata: 2\n\n');
    expect(writers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(writers)).toEqual(new Set(['check']));
  });
});
