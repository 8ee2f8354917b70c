import { describe, expect, it } from 'vitest';
import type { ClientCall } from '../client/interceptors.js';
import type { AgentCard } from '../core/schemas/index.js';
import { credentialInterceptors } from './connect.js';
import { UsageError } from './exit-codes.js';

const base: AgentCard = {
  name: 'a',
  description: 'd',
  version: '1',
  supportedInterfaces: [{ url: 'http://x', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

async function applied(card: AgentCard, flags: Parameters<typeof credentialInterceptors>[1]) {
  const call: ClientCall = {
    operation: 'GetTask',
    request: {},
    headers: {},
    query: {},
    attempt: 1,
    binding: 'JSONRPC',
    url: 'http://x',
    callState: new Map(),
  };
  for (const i of credentialInterceptors(card, flags)) await i.before?.(call);
  return { headers: call.headers, query: call.query };
}

const keyCard: AgentCard = {
  ...base,
  securitySchemes: { key: { apiKeySecurityScheme: { name: 'api_key', location: 'query' } } },
};

describe('credentialInterceptors', () => {
  it('sends --token as a bearer token', async () => {
    expect((await applied(base, { json: false, headers: {}, token: 't' })).headers).toEqual({
      Authorization: 'Bearer t',
    });
  });

  it("puts --api-key where the card's scheme says, by name or without one", async () => {
    for (const apiKey of [{ value: 'k' }, { name: 'API_KEY', value: 'k' }]) {
      expect(await applied(keyCard, { json: false, headers: {}, apiKey })).toEqual({
        headers: {},
        query: { api_key: 'k' },
      });
    }
  });

  it('sends a named key the card does not declare as a header', async () => {
    const { headers } = await applied(keyCard, {
      json: false,
      headers: {},
      apiKey: { name: 'X-Other', value: 'k' },
    });
    expect(headers).toEqual({ 'X-Other': 'k' });
  });

  it('refuses an unnamed key when the card declares no API key scheme', () => {
    expect(() =>
      credentialInterceptors(base, { json: false, headers: {}, apiKey: { value: 'k' } }),
    ).toThrow(UsageError);
  });
});
