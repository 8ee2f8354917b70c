/**
 * CORS for browser clients: preflights answered before authentication, the A2A request headers
 * allowed (plus the card's API-key header), A2A-Extensions and the challenge headers exposed,
 * also on refusals and on the public card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticSecrets } from '../../src/security/auth/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';

const APP = 'https://app.example';
const card: AgentCardConfig = {
  name: 'Browser-friendly',
  description: 'CORS on',
  version: '1.0.0',
  capabilities: { streaming: true },
  securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
  securityRequirements: [{ schemes: { key: { list: [] } } }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

let server: SecureServer;
beforeAll(async () => {
  server = await startSecured(securedAgent(card), {
    auth: { schemes: { key: { apiKey: staticSecrets({ k: { id: 'alice' } }) } } },
    cors: { origins: [APP], maxAgeSeconds: 120 },
  });
});
afterAll(async () => server?.close());

const preflight = (origin: string, path = '/a2a/jsonrpc') =>
  fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'a2a-version, authorization, content-type, x-api-key',
    },
  });

describe('CORS', () => {
  it('answers a preflight from an allowed origin without credentials', async () => {
    for (const path of ['/a2a/jsonrpc', '/a2a/rest/message:send', '/a2a/rest/tenant-1/tasks/t1']) {
      const response = await preflight(APP, path);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'A2A-Version, A2A-Extensions, Authorization, Content-Type, Last-Event-ID, X-API-Key',
      );
      expect(response.headers.get('access-control-max-age')).toBe('120');
      expect(response.headers.get('vary')).toBe('Origin');
    }
  });

  it('refuses a preflight from another origin', async () => {
    const response = await preflight('https://evil.example');
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the browser read replies, refusals and the card of an allowed origin', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
    const base = { origin: APP, 'content-type': 'application/json', 'a2a-version': '1.0' };
    const refused = await fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: base,
      body,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    expect(refused.headers.get('access-control-expose-headers')).toBe(
      'A2A-Extensions, WWW-Authenticate, Retry-After, ETag',
    );
    const ok = await fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...base, 'x-api-key': 'k' },
      body,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    const cardReply = await fetch(`${server.url}/.well-known/agent-card.json`, {
      headers: { origin: APP },
    });
    expect(cardReply.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('adds nothing for other origins and for requests that are not from a browser', async () => {
    const other = await fetch(`${server.url}/.well-known/agent-card.json`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});
