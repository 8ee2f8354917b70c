/**
 * One card for both versions (issue 14 point 2; spec §8.4, §3.6.2): with `compat: ['0.3']` and a
 * signed card, a 1.0 caller (our client sends `A2A-Version: 1.0`) gets the signed 1.0 card and
 * verifies it; a caller without the header gets the hybrid card, which carries no 1.0
 * signature (it could not verify over the hybrid body); both answers say `Vary: A2A-Version`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { createAgent } from '../../src/server/agent.js';
import { generateSigningKey } from '../../src/security/signing-keys.js';

const agent = createAgent({
  card: { name: 'signed', description: 'signed card', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.completed('ok');
  },
});

let server: ServeResult;
beforeAll(async () => {
  const key = await generateSigningKey('ES256');
  server = await serve(agent, { logger: null, compat: ['0.3'], signCard: { key, jku: true } });
});
afterAll(async () => {
  await server.close();
});

const cardUrl = () => `${server.url}/.well-known/agent-card.json`;

describe('signed card with compat 0.3', () => {
  it('the 1.0 card keeps its signature and our client verifies it', async () => {
    const response = await fetch(cardUrl(), { headers: { 'A2A-Version': '1.0' } });
    expect(response.headers.get('vary')).toBe('A2A-Version');
    const card = (await response.json()) as { signatures?: unknown[] };
    expect(card.signatures?.length).toBe(1);
    // Plain-http JWKS URLs are not trusted: hand the published keys over directly.
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as {
      keys: JsonWebKey[];
    };
    const client = await A2AClient.connect(server.url, {
      verifyCard: { keys: jwks.keys as never },
    });
    expect(client.card.name).toBe('signed');
  });

  it('the hybrid card has the 0.3 fields and no 1.0 signature', async () => {
    const response = await fetch(cardUrl());
    expect(response.headers.get('vary')).toBe('A2A-Version');
    const card = (await response.json()) as Record<string, unknown>;
    expect(card.protocolVersion).toBe('0.3.0');
    expect(card.url).toBe(`${server.url}/a2a/jsonrpc`);
    expect(card.signatures).toBeUndefined();
  });
});
