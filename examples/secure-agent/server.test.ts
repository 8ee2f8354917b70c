/** The secure-agent example, run: a verified card, user tokens, a service key, a guarded skill. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, AgentCardResolver, TransportError, userMessage } from 'a2a-kit/client';
import type { ServeResult } from 'a2a-kit/node';
import { startIssuer, type TestIssuer } from '../../test/security/fixtures/issuer.js';
import { startSecureAgent } from './server.js';

let issuer: TestIssuer;
let running: ServeResult;

beforeAll(async () => {
  issuer = await startIssuer();
  running = await startSecureAgent({
    issuer: issuer.url,
    audience: 'https://agent.test/a2a',
    apiKeys: { 'ci-key': 'ci' },
    allowInsecure: true,
    port: 0,
  });
});
afterAll(async () => {
  await running?.close();
  await issuer?.close();
});

/** A client that verifies the card against the published JWKS and sends `headers`. */
const client = (headers: Record<string, string>) =>
  A2AClient.connect(running.url, {
    headers,
    cardResolver: new AgentCardResolver(),
    verifyCard: { jwksUrl: `${running.url}/.well-known/jwks.json`, allowInsecure: true },
  });

const textOf = (reply: Awaited<ReturnType<A2AClient['sendMessage']>>) =>
  'task' in reply ? reply.task.artifacts?.[0]?.parts[0]?.text : undefined;

describe('examples/secure-agent', () => {
  it('serves users with a token and services with a key', async () => {
    const token = await issuer.token({ sub: 'alice', scope: 'agent.use' });
    const user = await client({ authorization: `Bearer ${token}` });
    expect(textOf(await user.sendMessage({ message: userMessage('hi') }))).toBe('hi');
    const service = await client({ 'x-api-key': 'ci-key' });
    expect((await service.getExtendedAgentCard({})).description).toBe(
      'Extended card for service:ci',
    );
  });

  it('guards the admin skill with its own scope', async () => {
    const toAdmin = { message: userMessage('who?', { metadata: { skillId: 'admin' } }) };
    const plain = await client({
      authorization: `Bearer ${await issuer.token({ sub: 'alice', scope: 'agent.use' })}`,
    });
    await expect(plain.sendMessage(toAdmin)).rejects.toSatisfy(
      (e) => e instanceof TransportError && e.status === 403,
    );
    const admin = await client({
      authorization: `Bearer ${await issuer.token({ sub: 'root', scope: 'agent.use agent.admin' })}`,
    });
    expect(textOf(await admin.sendMessage(toAdmin))).toBe('you are user:root');
  });
});

describe('examples/secure-agent with its issuer down', () => {
  it('[194] refuses a garbage token with 401 and a good one with 503, never 500', async () => {
    const gone = await startIssuer();
    const token = await gone.token({ sub: 'alice', scope: 'agent.use' });
    await gone.close();
    const warnings: string[] = [];
    const agent = await startSecureAgent({
      issuer: gone.url,
      audience: 'https://agent.test/a2a',
      apiKeys: {},
      allowInsecure: true,
      port: 0,
      logger: { warn: (message) => warnings.push(message), error: () => undefined },
    });
    try {
      const post = (bearer: string) =>
        fetch(`${agent.url}/a2a/rest/tasks`, {
          headers: { authorization: `Bearer ${bearer}`, 'a2a-version': '1.0' },
        });
      const garbage = await post('not.a.jwt');
      expect(garbage.status).toBe(401);
      expect(garbage.headers.get('www-authenticate')).toContain('invalid_token');
      const good = await post(token);
      expect(good.status).toBe(503);
      expect(good.headers.get('retry-after')).not.toBeNull();
      expect(warnings.join('\n')).toContain('cannot reach a token issuer');
    } finally {
      await agent.close();
    }
  });
});
