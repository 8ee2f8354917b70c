/**
 * The shared deadline signals of unary calls (deadline-signal.ts) against a real HTTP server on
 * loopback that never answers: a call times out no earlier than its timeout and within its
 * slot after it, calls sharing one signal each report their own URL, and a call that got its
 * answer is not affected when the shared signal fires later; a signal serves a bounded number of
 * calls, and one that serves no more calls is dropped with its timer once they are all over.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEADLINE_PASSED,
  releaseDeadline,
  sharedDeadline,
  USES_PER_SIGNAL,
} from './deadline-signal.js';
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
    expect(sharedDeadline(30_000, now).signal).toBe(sharedDeadline(30_000, now + 1).signal);
    expect(sharedDeadline(30_000, now).signal).not.toBe(sharedDeadline(30_000, now + 200).signal);
  });

  describe('with fake timers', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it(`gives one signal to at most ${USES_PER_SIGNAL} calls, then a fresh one`, () => {
      const now = 2_000_050;
      const first = Array.from({ length: USES_PER_SIGNAL }, () => sharedDeadline(30_000, now));
      expect(new Set(first.map((d) => d.signal)).size).toBe(1);
      const next = sharedDeadline(30_000, now);
      expect(next.signal).not.toBe(first[0]?.signal);
      expect(sharedDeadline(30_000, now).signal).toBe(next.signal);
    });

    it('drops a full signal with its timer once its calls are over, keeps the current one', () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const now = 3_000_050;
      const before = vi.getTimerCount();
      const full = Array.from({ length: USES_PER_SIGNAL }, () => sharedDeadline(30_000, now));
      const current = sharedDeadline(30_000, now);
      expect(vi.getTimerCount()).toBe(before + 2);
      for (const d of full.slice(1)) releaseDeadline(d);
      expect(vi.getTimerCount()).toBe(before + 2); // one call of the full signal still open
      releaseDeadline(full[0] as (typeof full)[number]);
      expect(vi.getTimerCount()).toBe(before + 1);
      releaseDeadline(current); // the current signal may serve more calls: it stays armed
      expect(vi.getTimerCount()).toBe(before + 1);
      vi.advanceTimersByTime(30_100);
      expect(current.signal.aborted).toBe(true);
      expect(current.signal.reason).toBe(DEADLINE_PASSED);
      expect(full[0]?.signal.aborted).toBe(false);
    });

    it('a unary exchange hands its signal back when read, closed or failed', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.setSystemTime(5_000_050);
      const before = vi.getTimerCount();
      let calls = 0;
      const fakeFetch = (() => {
        calls++;
        if (calls % 3 === 0) return Promise.reject(new Error('refused'));
        return Promise.resolve(new Response('ok'));
      }) as typeof fetch;
      for (let n = 0; n < USES_PER_SIGNAL * 3 - 1; n++) {
        const opened = openExchange({
          url: 'http://agent.invalid/',
          method: 'GET',
          headers: {},
          timeoutMs: 30_000,
          unary: true,
          fetch: fakeFetch,
        });
        const exchange = await opened.catch(() => undefined);
        if (exchange === undefined) continue;
        if (n % 2 === 0) expect(await exchange.text()).toBe('ok');
        else exchange.close();
      }
      // Two full signals dropped; the current one stays armed for the calls still to come.
      expect(vi.getTimerCount()).toBe(before + 1);
    });

    it('still aborts a full signal whose calls are not all over', () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const now = 4_000_050;
      const full = Array.from({ length: USES_PER_SIGNAL }, () => sharedDeadline(30_000, now));
      sharedDeadline(30_000, now);
      for (const d of full.slice(1)) releaseDeadline(d);
      vi.advanceTimersByTime(30_100);
      expect(full[0]?.signal.reason).toBe(DEADLINE_PASSED);
    });
  });

  it('times each call out after its timeout, within its slot, naming its own URL', async () => {
    // `/a` through fetch, `/b` through the dispatcher under it (http-send.ts), one slot for both.
    const call = (path: string) => {
      const started = Date.now();
      return openExchange({
        url: `${base}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 1000,
        unary: true,
        direct: path === '/b',
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
    for (const direct of [false, true]) {
      const exchange = await openExchange({
        url: `${base}/fast`,
        method: 'GET',
        headers: {},
        timeoutMs: 1000,
        unary: true,
        direct,
      });
      expect(await exchange.text()).toBe('ok');
    }
    const { signal } = sharedDeadline(1000);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    expect(signal.reason).toBe(DEADLINE_PASSED);
  });
});
