import { describe, expect, it } from 'vitest';
import { contentHash, createAgentCardEndpoint } from './agent-card.js';
import type { HttpRequest } from './types.js';

const started = new Date('2026-01-02T03:04:05.678Z');

function endpoint() {
  const built: string[] = [];
  const respond = createAgentCardEndpoint({
    card: (baseUrl) => {
      built.push(baseUrl);
      return { name: 'Echo', supportedInterfaces: [{ url: baseUrl }] };
    },
    maxAgeSeconds: 120,
    lastModified: started,
  });
  return { respond, built };
}

function get(headers: Record<string, string> = {}): HttpRequest {
  return {
    method: 'GET',
    url: '/.well-known/agent-card.json',
    headers: { get: (n) => headers[n] ?? null },
  };
}

describe('agent card endpoint', () => {
  it('[15][16][17] serves the card with Cache-Control, a strong ETag and Last-Modified', () => {
    const { respond } = endpoint();
    const res = respond(get(), 'http://a');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string)).toMatchObject({ name: 'Echo' });
    expect(res.headers).toMatchObject({
      'content-type': 'application/json',
      'cache-control': 'public, max-age=120',
      'last-modified': 'Fri, 02 Jan 2026 03:04:05 GMT',
    });
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
  });

  it('serializes and hashes each card once per base URL', () => {
    const { respond, built } = endpoint();
    const a1 = respond(get(), 'http://a');
    const a2 = respond(get(), 'http://a');
    const b = respond(get(), 'http://b');
    expect(built).toEqual(['http://a', 'http://b']);
    expect(a1.headers.etag).toBe(a2.headers.etag);
    expect(b.headers.etag).not.toBe(a1.headers.etag);
  });

  it.each([
    ['the same ETag', (etag: string) => etag],
    ['a weak form of it', (etag: string) => `W/${etag}`],
    ['a list containing it', (etag: string) => `"other", ${etag}`],
    ['*', () => '*'],
  ])('[18] answers 304 without a body to If-None-Match with %s', (_name, value) => {
    const { respond } = endpoint();
    const etag = respond(get(), 'http://a').headers.etag as string;
    const res = respond(get({ 'if-none-match': value(etag) }), 'http://a');
    expect(res.status).toBe(304);
    expect(res.body).toBeUndefined();
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('answers 200 to a stale If-None-Match even when If-Modified-Since would match', () => {
    const { respond } = endpoint();
    const res = respond(
      get({ 'if-none-match': '"stale"', 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }),
      'http://a',
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ['Fri, 02 Jan 2026 03:04:05 GMT', 304],
    ['Sat, 03 Jan 2026 00:00:00 GMT', 304],
    ['Fri, 02 Jan 2026 03:04:04 GMT', 200],
    ['not a date', 200],
  ])('[18] If-Modified-Since %s → %d', (since, status) => {
    const { respond } = endpoint();
    expect(respond(get({ 'if-modified-since': since }), 'http://a').status).toBe(status);
  });

  it('hashes different texts differently', () => {
    expect(contentHash('{"a":1}')).not.toBe(contentHash('{"a":2}'));
    expect(contentHash('ab')).not.toBe(contentHash('ba'));
    expect(contentHash('x')).toBe(contentHash('x'));
  });
});
