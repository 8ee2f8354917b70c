import { afterEach, describe, expect, it } from 'vitest';
import { card, task } from '../../test/support/fixtures.js';
import { sendJson, startWireServer, type WireServer } from '../../test/support/wire-server.js';
import type { AgentCard } from '../core/schemas/index.js';
import { A2AClient } from './client.js';
import { apiKey, bearerToken, credentialsForCard, describeSecuritySchemes } from './credentials.js';
import type { Interceptor } from './interceptors.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Makes one REST GetTask call through `interceptor` and returns what the server received. */
async function sent(interceptor: Interceptor | undefined) {
  server = await startWireServer((_req, res) => sendJson(res, 200, task()));
  const client = await A2AClient.connect(
    card([{ url: `${server.url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]),
    { interceptors: interceptor ? [interceptor] : [] },
  );
  await client.getTask({ id: 't1' });
  const req = server.requests[0];
  if (!req) throw new Error('no request');
  return req;
}

const schemes: AgentCard['securitySchemes'] = {
  mtls: { mtlsSecurityScheme: {} },
  key: { apiKeySecurityScheme: { name: 'X-Api-Key', location: 'header' } },
  qkey: { apiKeySecurityScheme: { name: 'api_key', location: 'query' } },
  ckey: { apiKeySecurityScheme: { name: 'session', location: 'cookie' } },
  jwt: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
  oidc: {
    openIdConnectSecurityScheme: {
      openIdConnectUrl: 'https://id.example/.well-known/openid-configuration',
    },
  },
};

describe('credential interceptors [193]', () => {
  it('sends a bearer token, read again on every call', async () => {
    let n = 0;
    const req = await sent(bearerToken(() => `token-${++n}`));
    expect(req.headers.authorization).toBe('Bearer token-1');
  });

  it.each([
    ['header', (r: Awaited<ReturnType<typeof sent>>) => r.headers['x-key']],
    [
      'query',
      (r: Awaited<ReturnType<typeof sent>>) => new URL(r.url, 'http://x').searchParams.get('X-Key'),
    ],
    ['cookie', (r: Awaited<ReturnType<typeof sent>>) => r.headers.cookie?.replace('X-Key=', '')],
  ] as const)('sends an API key in the %s', async (location, read) => {
    const req = await sent(apiKey('X-Key', 's3cret', location));
    expect(read(req)).toBe('s3cret');
  });
});

describe('credentialsForCard', () => {
  it('uses the scheme the card requires first', async () => {
    const required = {
      securitySchemes: schemes,
      securityRequirements: [{ schemes: { qkey: { list: [] } } }],
    };
    const req = await sent(credentialsForCard(required, { apiKey: 'k1', token: 't1' }));
    expect(new URL(req.url, 'http://x').searchParams.get('api_key')).toBe('k1');
    expect(req.headers.authorization).toBeUndefined();
  });

  it.each<[string, { token?: string; apiKey?: string }, string, string]>([
    ['an API key', { apiKey: 'k2' }, 'x-api-key', 'k2'],
    ['a token', { token: 't2' }, 'authorization', 'Bearer t2'],
  ])('picks the first scheme that fits %s', async (_name, secrets, header, value) => {
    const req = await sent(credentialsForCard({ securitySchemes: schemes }, secrets));
    expect(req.headers[header]).toBe(value);
  });

  it('sends a token for OpenID Connect and OAuth 2 schemes as a bearer token', async () => {
    const only = { securitySchemes: { oidc: schemes.oidc as NonNullable<typeof schemes.oidc> } };
    const req = await sent(credentialsForCard(only, { token: 't3' }));
    expect(req.headers.authorization).toBe('Bearer t3');
  });

  it('returns undefined when no scheme fits the secrets', () => {
    expect(
      credentialsForCard({ securitySchemes: { mtls: { mtlsSecurityScheme: {} } } }, { token: 't' }),
    ).toBeUndefined();
    expect(credentialsForCard({}, { token: 't' })).toBeUndefined();
  });

  it('describes what each scheme needs', () => {
    expect(describeSecuritySchemes({ securitySchemes: schemes })).toEqual([
      'mtls: mutual TLS client certificate',
      'key: API key in header "X-Api-Key"',
      'qkey: API key in query "api_key"',
      'ckey: API key in cookie "session"',
      'jwt: HTTP bearer token',
      'oidc: OpenID Connect bearer token (https://id.example/.well-known/openid-configuration)',
    ]);
  });
});
