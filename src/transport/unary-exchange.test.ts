/**
 * The hot path of a unary exchange (http-exchange.ts: no caller signal, so fetch gets no
 * AbortSignal and the deadline is a timer raced against the reply), against a real HTTP server
 * on loopback: a call times out no earlier than its timeout and soon after it, concurrent calls
 * each report their own URL, a reply that comes too late is still read to its end (so its
 * connection is released), and a call that answers in time is unaffected by its timer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from './errors.js';
import { openExchange } from './http-exchange.js';

describe('unary exchange without a caller signal', () => {
  let server: Server;
  let base: string;
  const late: Promise<void>[] = [];

  beforeAll(async () => {
    server = createServer((req, res: ServerResponse) => {
      if (req.url === '/fast') {
        res.end('ok');
      } else if (req.url === '/late') {
        late.push(new Promise((resolve) => res.once('finish', () => resolve())));
        setTimeout(() => res.end('too late'), 400);
      }
      // every other path: never answers
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string, timeoutMs: number) => {
    const started = Date.now();
    return openExchange({
      url: `${base}${path}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs,
      unary: true,
    })
      .then((exchange) => exchange.text())
      .then(
        (text) => ({ text, error: undefined, elapsed: Date.now() - started }),
        (error: unknown) => ({ text: undefined, error, elapsed: Date.now() - started }),
      );
  };

  it('times each call out after its timeout, naming its own URL', async () => {
    const [a, b] = await Promise.all([call('/a', 300), call('/b', 300)]);
    for (const [result, path] of [
      [a, '/a'],
      [b, '/b'],
    ] as const) {
      expect(result.error).toBeInstanceOf(TransportError);
      const error = result.error as TransportError;
      expect(error.code).toBe('TIMEOUT');
      expect(error.url).toBe(`${base}${path}`);
      expect(error.message).toContain(`${base}${path} within 300 ms`);
      expect(result.elapsed).toBeGreaterThanOrEqual(295);
      expect(result.elapsed).toBeLessThan(300 + 700); // a busy machine answers timers late
    }
  });

  it('reads a reply that comes after the deadline to its end, and reports TIMEOUT', async () => {
    const result = await call('/late', 150);
    expect((result.error as TransportError).code).toBe('TIMEOUT');
    await expect(late[0]).resolves.toBeUndefined();
  });

  it('answers a call that replies in time', async () => {
    expect(await call('/fast', 300)).toMatchObject({ text: 'ok', error: undefined });
  });
});
