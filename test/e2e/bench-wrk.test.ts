/**
 * The bench's wrk load generator (bench/load/wrk.ts) against a real node:http server on
 * loopback: every request carries a unique message id (the `[<id>]` substitution of the Lua
 * script), the body arrives byte for byte, and non-2xx answers are counted as failures.
 * Skipped when wrk is not installed (the bench then falls back to autocannon).
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrkLoad } from '../../bench/load/wrk.js';

const wrk = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(wrk === '')('bench wrk generator', () => {
  let server: Server;
  let url: string;
  const bodies: string[] = [];
  const headers: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
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
    const ids = bodies.map((b) => (JSON.parse(b) as { messageId: string }).messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(bodies.every((b) => b.endsWith('","text":"héllo \\"q\\" 1"}'))).toBe(true);
    expect(new Set(headers)).toEqual(new Set(['1.0']));
    // wrk may have sent requests whose answers it did not wait for when stopped.
    expect(bodies.length).toBeGreaterThanOrEqual(result.requests);
  });

  it('counts non-2xx answers as failures, by kind', async () => {
    const result = await wrkLoad(wrk, {
      url: `${url}/fail`,
      method: 'GET',
      headers: {},
      connections: 1,
      durationSec: 0.3,
    });
    expect(result.requests).toBe(0);
    expect(result.errors.non2xx).toBeGreaterThan(0);
    expect(result.failures).toBe(result.errors.non2xx);
  });
});
