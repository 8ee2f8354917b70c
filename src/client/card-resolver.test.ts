import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { card } from '../../test/support/fixtures.js';
import {
  delay,
  sendJson,
  startWireServer,
  type WireHandler,
  type WireServer,
} from '../../test/support/wire-server.js';
import { AgentCardResolver, cardUrl } from './card-resolver.js';
import { freshness } from './card-cache.js';
import { TransportError } from '../transport/errors.js';

const CARD = card([
  { url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
]);
const WELL_KNOWN = '/.well-known/agent-card.json';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serveCard(handler: WireHandler): Promise<WireServer> {
  server = await startWireServer(handler);
  return server;
}

function sendCard(
  res: ServerResponse,
  headers: Record<string, string>,
  body: unknown = CARD,
): void {
  sendJson(res, 200, body, headers);
}

describe('cardUrl', () => {
  it.each([
    ['http://h:1', 'http://h:1/.well-known/agent-card.json'],
    ['http://h:1/', 'http://h:1/.well-known/agent-card.json'],
    ['http://h:1/agents/a', 'http://h:1/agents/a/.well-known/agent-card.json'],
    ['http://h:1/.well-known/agent-card.json', 'http://h:1/.well-known/agent-card.json'],
    ['http://h:1/cards/mine.json', 'http://h:1/cards/mine.json'],
  ])('%s → %s', (input, expected) => {
    expect(cardUrl(input)).toBe(expected);
  });
});

describe('freshness', () => {
  it.each([
    ['max-age=60', {}, { store: true, ttlMs: 60_000 }],
    ['public, max-age=60', { age: '10' }, { store: true, ttlMs: 50_000 }],
    ['no-store', {}, { store: false, ttlMs: 0 }],
    ['no-cache', {}, { store: true, ttlMs: 0 }],
    [null, {}, { store: true, ttlMs: 1234 }],
  ])('Cache-Control %s', (cc, extra, expected) => {
    const headers = new Headers(extra);
    if (cc) headers.set('cache-control', cc);
    expect(freshness(headers, 1234)).toEqual(expected);
  });
});

describe('AgentCardResolver', () => {
  it('fetches the well-known card with A2A-Version and validates it', async () => {
    const s = await serveCard((_req, res) => sendCard(res, { 'cache-control': 'max-age=60' }));
    const got = await new AgentCardResolver().resolve(s.url);
    expect(got.name).toBe('Test agent');
    expect(s.requests[0]?.url).toBe(WELL_KNOWN);
    expect(s.requests[0]?.headers['a2a-version']).toBe('1.0');
  });

  it('reuses a card while max-age lasts, then revalidates with If-None-Match and If-Modified-Since [18]', async () => {
    let now = 1_000_000;
    const lastModified = 'Wed, 01 Jan 2025 00:00:00 GMT';
    const s = await serveCard((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=30' });
        res.end();
        return;
      }
      sendCard(res, { etag: '"v1"', 'last-modified': lastModified, 'cache-control': 'max-age=10' });
    });
    const resolver = new AgentCardResolver({ now: () => now });
    const first = await resolver.resolve(s.url);
    now += 9_000;
    expect(await resolver.resolve(s.url)).toBe(first);
    expect(s.requests).toHaveLength(1);

    now += 2_000; // past max-age=10
    expect(await resolver.resolve(s.url)).toEqual(first);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]?.headers['if-none-match']).toBe('"v1"');
    expect(s.requests[1]?.headers['if-modified-since']).toBe(lastModified);

    now += 25_000; // the 304 renewed the lifetime to 30 s
    await resolver.resolve(s.url);
    expect(s.requests).toHaveLength(2);
  });

  it('replaces the cached card when revalidation returns a new one', async () => {
    let now = 0;
    const s = await serveCard((_req, res, n) =>
      sendCard(
        res,
        { etag: `"v${n}"`, 'cache-control': 'max-age=1' },
        { ...CARD, version: `${n}.0.0` },
      ),
    );
    const resolver = new AgentCardResolver({ now: () => now });
    expect((await resolver.resolve(s.url)).version).toBe('1.0.0');
    now += 2_000;
    expect((await resolver.resolve(s.url)).version).toBe('2.0.0');
  });

  it('never stores a card sent with no-store', async () => {
    const s = await serveCard((_req, res) =>
      sendCard(res, { 'cache-control': 'no-store', etag: '"x"' }),
    );
    const resolver = new AgentCardResolver();
    await resolver.resolve(s.url);
    await resolver.resolve(s.url);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]?.headers['if-none-match']).toBeUndefined();
  });

  it('applies its default lifetime when the server sends no caching headers [19]', async () => {
    let now = 0;
    const s = await serveCard((_req, res) => sendCard(res, {}));
    const resolver = new AgentCardResolver({ now: () => now, defaultTtlMs: 5_000 });
    await resolver.resolve(s.url);
    now += 4_000;
    await resolver.resolve(s.url);
    expect(s.requests).toHaveLength(1);
    now += 2_000;
    await resolver.resolve(s.url);
    expect(s.requests).toHaveLength(2);
  });

  it('coalesces concurrent requests for one card into one fetch', async () => {
    const s = await serveCard(async (_req, res) => {
      await delay(50);
      sendCard(res, { 'cache-control': 'no-cache' });
    });
    const resolver = new AgentCardResolver();
    const cards = await Promise.all(Array.from({ length: 25 }, () => resolver.resolve(s.url)));
    expect(new Set(cards).size).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it('lets one caller abort without failing the others sharing the fetch', async () => {
    const s = await serveCard(async (_req, res) => {
      await delay(80);
      sendCard(res, {});
    });
    const resolver = new AgentCardResolver();
    const controller = new AbortController();
    const aborted = resolver.resolve(s.url, { signal: controller.signal });
    const other = resolver.resolve(s.url);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    expect((await other).name).toBe('Test agent');
    expect(s.requests).toHaveLength(1);
  });

  it('caches cards fetched with different credentials apart', async () => {
    const s = await serveCard((_req, res) => sendCard(res, { 'cache-control': 'max-age=60' }));
    const resolver = new AgentCardResolver();
    await resolver.resolve(s.url, { headers: { Authorization: 'Bearer a' } });
    await resolver.resolve(s.url, { headers: { Authorization: 'Bearer b' } });
    await resolver.resolve(s.url, { headers: { authorization: 'Bearer a' } });
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer a', 'Bearer b']);
  });

  it.each<[string, WireHandler, RegExp]>([
    [
      'an HTML page',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><body>Welcome</body></html>');
      },
      /not an A2A agent: .* returned an HTML page/,
    ],
    [
      'a 404',
      (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not Found');
      },
      /not an A2A agent: no agent card at .*agent-card\.json \(HTTP 404\)/,
    ],
    [
      'JSON that is no card',
      (_req, res) => sendJson(res, 200, { hello: 'world' }),
      /not an A2A agent: .* not an agent card/,
    ],
    [
      'text that is not JSON',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"name": ');
      },
      /not an A2A agent: .* did not return JSON/,
    ],
  ])('says "not an A2A agent" for %s', async (_name, handler, message) => {
    const s = await serveCard(handler);
    const error = await new AgentCardResolver().resolve(s.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toMatch(message);
  });

  it('lists what is wrong with an invalid card (BAD_RESPONSE) [3][4]', async () => {
    const broken = {
      ...CARD,
      capabilities: undefined,
      skills: [{ id: 's', name: 'S', description: 'd', tags: [] }],
    };
    const s = await serveCard((_req, res) => sendJson(res, 200, broken));
    const error = await new AgentCardResolver().resolve(s.url).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as Error).message).toMatch(
      /^invalid agent card at http:.*capabilities.*skills\.0\.tags: must contain at least one tag/,
    );
  });

  it('reads a 0.3 card into supportedInterfaces marked 0.3', async () => {
    const legacy = {
      name: 'Old',
      description: 'A 0.3 agent',
      version: '2.0.0',
      protocolVersion: '0.3.0',
      url: 'http://old.example/a2a',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'http://old.example/a2a', transport: 'JSONRPC' },
        { url: 'http://old.example/rest', transport: 'HTTP+JSON' },
      ],
      supportsAuthenticatedExtendedCard: true,
      capabilities: { streaming: true, stateTransitionHistory: false },
      securitySchemes: { key: { type: 'apiKey', name: 'X-Key', in: 'header' } },
      security: [{ key: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
    const s = await serveCard((_req, res) => sendJson(res, 200, legacy));
    const got = await new AgentCardResolver().resolve(s.url);
    expect(got.supportedInterfaces).toEqual([
      { url: 'http://old.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://old.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(got.capabilities).toEqual({ streaming: true, extendedAgentCard: true });
    expect(got.securitySchemes).toEqual({
      key: { apiKeySecurityScheme: { name: 'X-Key', location: 'header' } },
    });
    expect(got.securityRequirements).toEqual([{ schemes: { key: { list: [] } } }]);
  });
});
