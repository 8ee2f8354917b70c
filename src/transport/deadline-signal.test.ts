/**
 * The shared deadline signals of unary calls (deadline-signal.ts) against a real HTTP server on
 * loopback that never answers: a call times out no earlier than its timeout and within its
 * slot after it, calls sharing one signal each report their own URL, and a call that got its
 * answer is not affected when the shared signal fires later.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_PASSED, sharedDeadline } from './deadline-signal.js';
import { TransportError } from './errors.js';
import { openExchange } from './http-exchange.js';

describe('shared deadline signals', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/fast') res.end('ok');
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

  it('gives calls whose deadlines fall in one slot the same signal, others another', () => {
    const now = 1_000_050; // mid-slot: slots of 30 s timeouts are 100 ms wide
    expect(sharedDeadline(30_000, now)).toBe(sharedDeadline(30_000, now + 1));
    expect(sharedDeadline(30_000, now)).not.toBe(sharedDeadline(30_000, now + 200));
  });

  it('times each call out after its timeout, within its slot, naming its own URL', async () => {
    const call = (path: string) => {
      const started = Date.now();
      return openExchange({
        url: `${base}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 1000,
        unary: true,
      }).then(
        () => ({ error: undefined, elapsed: Date.now() - started }),
        (error: unknown) => ({ error, elapsed: Date.now() - started }),
      );
    };
    const [a, b] = await Promise.all([call('/a'), call('/b')]);
    for (const [result, path] of [
      [a, '/a'],
      [b, '/b'],
    ] as const) {
      expect(result.error).toBeInstanceOf(TransportError);
      const error = result.error as TransportError;
      expect(error.code).toBe('TIMEOUT');
      expect(error.url).toBe(`${base}${path}`);
      expect(error.message).toContain(`${base}${path}`);
      expect(result.elapsed).toBeGreaterThanOrEqual(995);
      expect(result.elapsed).toBeLessThan(1000 + 10 + 500); // slot of 10 ms, plus a busy machine
    }
  });

  it('leaves a call that already answered alone when its shared signal fires', async () => {
    const exchange = await openExchange({
      url: `${base}/fast`,
      method: 'GET',
      headers: {},
      timeoutMs: 1000,
      unary: true,
    });
    expect(await exchange.text()).toBe('ok');
    const signal = sharedDeadline(1000);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    expect(signal.reason).toBe(DEADLINE_PASSED);
  });
});
