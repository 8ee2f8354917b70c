/**
 * The extended card built from the served one (spec §3.1.11): `Agent.extendedCard(call, card)`
 * gets the public card as served, with every interface `serve()` listens on, over each binding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../core/schemas/index.js';
import { staticSecrets } from '../security/auth/index.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { BINDINGS, driverFor, type Driver } from '../../test/security/fixtures/drivers.js';
import { serve, type ServeResult } from './serve.js';

const agent = createAgent({
  card: {
    name: 'Layered',
    description: 'Public part',
    version: '1.0.0',
    capabilities: { streaming: true, extendedAgentCard: true },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
  },
  async *execute({ task }) {
    yield task.completed();
  },
  extendedCard: (call, card) => ({
    ...card,
    description: `For ${call.principal?.id ?? 'nobody'}`,
    skills: [...card.skills, { id: 'secret', name: 'Secret', description: 'Hidden', tags: ['t'] }],
  }),
});

let running: ServeResult;
const drivers: Driver[] = [];

beforeAll(async () => {
  running = await serve(agent, {
    logger: null,
    grpc: true,
    auth: { schemes: { bearer: { bearer: staticSecrets({ 'tok-ann': { id: 'ann' } }) } } },
  });
});
afterAll(async () => {
  for (const d of drivers) d.close();
  await running?.close();
});

describe.each(BINDINGS)('[217] the extended card from the served one (%s)', (binding) => {
  it('lists the public interfaces, capabilities and skills, plus its own', async () => {
    const d = driverFor(binding, running);
    drivers.push(d);
    const outcome = await d.call('GetExtendedAgentCard', {}, { authorization: 'Bearer tok-ann' });
    expect(outcome.code).toBe('OK');
    const extended = outcome.result as AgentCard;
    const served = (await (
      await fetch(`${running.url}/.well-known/agent-card.json`)
    ).json()) as AgentCard;
    expect(extended.description).toBe('For ann');
    expect(extended.supportedInterfaces).toEqual(served.supportedInterfaces);
    expect(extended.supportedInterfaces.map((i) => i.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
      'GRPC',
    ]);
    expect(extended.capabilities).toEqual(served.capabilities);
    expect(extended.skills.map((s) => s.id)).toEqual(['echo', 'secret']);
    // Anonymous callers still get the public card only.
    expect((await d.call('GetExtendedAgentCard', {})).code).toBe('UNAUTHENTICATED');
  });
});

describe('A2AServer.publicCard()', () => {
  it('is the card with the interfaces set by setInterfaces (serve() sets them)', async () => {
    expect(running.server.publicCard().supportedInterfaces).toEqual(
      ((await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as AgentCard)
        .supportedInterfaces,
    );
    const server = new A2AServer({ agent, logger: null });
    const interfaces = [
      { url: 'https://a.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ];
    server.setInterfaces(interfaces);
    expect(server.publicCard().supportedInterfaces).toEqual(interfaces);
    await server.close();
  });
});
