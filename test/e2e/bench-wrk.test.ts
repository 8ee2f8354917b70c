/**
 * The bench's wrk load generator (bench/load/wrk.ts) against a real node:http server on
 * loopback: every request carries a unique message id (the `[<id>]` substitution of the Lua
 * script), the body arrives byte for byte, non-2xx answers are counted as failures, and the SSE
 * events of chunked answers are counted when asked (the stream scenario's streams/s).
 * Skipped when wrk is not installed (the bench then falls back to autocannon).
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrkLoad } from '../../bench/load/wrk.js';
import { corrected, percentile, uncorrected, wrkInterval } from '../../bench/load/wrk-latency.js';

const wrk = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).stdout.trim();

describe('wrk latency histogram (bench/load/wrk-latency.ts)', () => {
  const histogram = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 50 })), {
      maxLength: 60,
    })
    .map((pairs) => {
      const h = new Map<number, number>();
      for (const [v, c] of pairs) h.set(v, (h.get(v) ?? 0) + c);
      return h;
    });

  it('undoes exactly what wrk adds for coordinated omission', () => {
    fc.assert(
      fc.property(histogram, fc.integer({ min: 1, max: 400 }), (measured, interval) => {
        expect(uncorrected(corrected(measured, interval), interval)).toEqual(measured);
      }),
      { numRuns: 300 },
    );
  });

  it("adds wrk's synthetic samples: one stall of 10 intervals on all connections", () => {
    // 100 answers at 1 ms, then 5 connections stuck for 10 ms each, interval 1 ms.
    const measured = new Map([
      [1000, 100],
      [10_000, 5],
    ]);
    const reported = corrected(measured, 1000);
    expect([...reported].sort((a, b) => a[0] - b[0])).toEqual([
      [1000, 100],
      ...[2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000].map((v) => [v, 5]),
      [10_000, 5],
    ]);
    expect(percentile(measured, 99)).toBe(10_000);
    expect(percentile(measured, 50)).toBe(1000);
    // 40 synthetic samples out of 145: the reported p50 is still 1 ms, its p90 no longer.
    expect(percentile(reported, 90)).toBeGreaterThan(1000);
    expect(percentile(measured, 90)).toBe(1000);
  });

  it("computes wrk's interval with its integer arithmetic", () => {
    expect(wrkInterval(6_000_000, 20_000, 50)).toBe(15_000);
    expect(wrkInterval(6_000_000, 20_001, 50)).toBe(15_000);
    expect(wrkInterval(1_000_000, 10, 50)).toBe(0);
  });
});

describe.skipIf(wrk === '')('bench wrk generator', () => {
  let server: Server;
  let url: string;
  const bodies: string[] = [];
  const headers: string[] = [];

  beforeAll(async () => {
    let stalls = 0;
    server = createServer((req, res) => {
      // One request in the run is held for 400 ms: what wrk's correction multiplies.
      if (req.url === '/stall' && ++stalls === 50) {
        req.resume();
        setTimeout(() => res.writeHead(200, { 'content-length': '2' }).end('{}'), 400);
        return;
      }
      if (req.url === '/events') {
        // Three events in two chunks, then a fourth after a pause: counted whole per answer.
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 1\ndata: {"a":1}\n\nid: 2\ndata: {"b":"data: not an event"}\n\n');
        res.write(': a comment\n\ndata: {"c":3}\n\n');
        setTimeout(() => res.end('data: {"d":4}\n\n'), 2);
        return;
      }
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        bodies.push(body);
        headers.push(String(req.headers['a2a-version']));
        res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-length': '2' }).end('{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A GET load on `path` of the test server. */
  const load = (path: string, connections: number, durationSec: number) =>
    wrkLoad(wrk, { url: `${url}${path}`, method: 'GET', headers: {}, connections, durationSec });

  it('sends a unique id in every body and reports what the server answered', async () => {
    const template = '{"messageId":"[<id>]","text":"héllo \\"q\\" 1"}';
    const result = await wrkLoad(wrk, {
      url: `${url}/ok`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: template,
      connections: 4,
      durationSec: 0.5, // fractional: ended with SIGINT, wrk still prints its summary
    });
    expect(result.generator).toBe('wrk');
    expect(result.failures).toBe(0);
    expect(result.requests).toBeGreaterThan(10);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.p50).toBeGreaterThan(0);
    // wrk's corrected histogram only gains samples, so its p99 is never below the measured one.
    expect(result.p99Corrected).toBeGreaterThanOrEqual(result.p99);
    const ids = bodies.map((b) => (JSON.parse(b) as { messageId: string }).messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(bodies.every((b) => b.endsWith('","text":"héllo \\"q\\" 1"}'))).toBe(true);
    expect(new Set(headers)).toEqual(new Set(['1.0']));
    // wrk may have sent requests whose answers it did not wait for when stopped.
    expect(bodies.length).toBeGreaterThanOrEqual(result.requests);
  });

  it("reports the latencies it measured, and wrk's corrected p99 beside them", async () => {
    const result = await load('/stall', 4, 1);
    // One answer in hundreds took 400 ms: it is not the measured p99, but wrk adds a sample
    // per interval of it, which moves its own p99 up to near the stall.
    expect(result.requests).toBeGreaterThan(200);
    expect(result.p99).toBeLessThan(200);
    expect(result.p99Corrected).toBeGreaterThanOrEqual(200);
  });

  it('counts the SSE events of chunked answers when asked, and none otherwise', async () => {
    const spec = { url: `${url}/events`, method: 'GET' as const, headers: {}, connections: 2 };
    const counted = await wrkLoad(wrk, { ...spec, durationSec: 0.5, countEvents: true });
    expect(counted.requests).toBeGreaterThan(10);
    expect(counted.events).toBe(counted.requests * 4);
    const plain = await wrkLoad(wrk, { ...spec, durationSec: 0.3 });
    expect(plain.events).toBe(0);
  });

  it('counts non-2xx answers as failures, by kind', async () => {
    const result = await load('/fail', 1, 0.3);
    expect(result.requests).toBe(0);
    expect(result.errors.non2xx).toBeGreaterThan(0);
    expect(result.failures).toBe(result.errors.non2xx);
  });
});
