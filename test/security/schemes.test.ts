/**
 * Every scheme type a card can declare, enforced as declared (spec §4.5, §7.4): API keys in a
 * header, query parameter or cookie, HTTP Basic and Bearer, OpenAPI OR/AND semantics, per-skill
 * requirements, a pluggable authenticator, and the extended card for authenticated callers only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/node/index.js';
import { skillFromMetadata, staticSecrets, staticUsers } from '../../src/security/auth/index.js';
import { userMessage } from '../../src/server/index.js';
import { BINDINGS, driverFor, type Driver } from './fixtures/drivers.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';
import type { AgentCardConfig } from '../../src/server/agent.js';

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** A card offering five alternative schemes, and a skill that needs the bearer's admin role. */
const card: AgentCardConfig = {
  name: 'Many doors',
  description: 'Any one of five schemes',
  version: '1.0.0',
  capabilities: { streaming: true, extendedAgentCard: true },
  securitySchemes: {
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    qkey: { apiKeySecurityScheme: { location: 'query', name: 'api_key' } },
    ckey: { apiKeySecurityScheme: { location: 'cookie', name: 'session' } },
    basic: { httpAuthSecurityScheme: { scheme: 'Basic' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
  },
  securityRequirements: [
    { schemes: { key: { list: [] } } },
    { schemes: { qkey: { list: [] } } },
    { schemes: { ckey: { list: [] } } },
    { schemes: { basic: { list: [] } } },
    { schemes: { bearer: { list: [] } } },
  ],
  skills: [
    { id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] },
    {
      id: 'admin',
      name: 'Admin',
      description: 'Needs the admin role',
      tags: ['t'],
      securityRequirements: [{ schemes: { bearer: { list: ['admin'] } } }],
    },
  ],
};

let server: SecureServer;
const drivers: Driver[] = [];

beforeAll(async () => {
  const keys = staticSecrets({ 'key-alice': { id: 'alice' }, 'key-bob': { id: 'bob' } });
  server = await startSecured(securedAgent(card), {
    auth: {
      schemes: {
        key: { apiKey: keys },
        qkey: { apiKey: keys },
        ckey: { apiKey: keys },
        basic: { basic: staticUsers({ carol: { password: 'pa:ss wörd' } }) },
        bearer: {
          bearer: staticSecrets({
            'tok-root': { id: 'root', scopes: ['admin'] },
            'tok-dave': { id: 'dave', scopes: [] },
          }),
        },
      },
      skillOf: skillFromMetadata(),
    },
  });
});

afterAll(async () => {
  for (const d of drivers) d.close();
  await server?.close();
});

function driver(binding: (typeof BINDINGS)[number]): Driver {
  const d = driverFor(binding, server);
  drivers.push(d);
  return d;
}

/** The principal a call ran as: the extended card names it. */
async function whoAmI(d: Driver, headers: Record<string, string>): Promise<string> {
  const outcome = await d.call('GetExtendedAgentCard', {}, headers);
  return outcome.code === 'OK' ? (outcome.result as { name: string }).name : outcome.code;
}

describe.each(BINDINGS)('[194] schemes of the card (%s)', (binding) => {
  it('each alternative authenticates on its own (OR), as its own principal', async () => {
    const d = driver(binding);
    expect(await whoAmI(d, { 'x-api-key': 'key-alice' })).toBe('Many doors for alice');
    expect(await whoAmI(d, basic('carol', 'pa:ss wörd'))).toBe('Many doors for carol');
    expect(await whoAmI(d, { authorization: 'Bearer tok-root' })).toBe('Many doors for root');
    if (binding !== 'GRPC') {
      // Cookies are HTTP; gRPC metadata can carry one too, but browsers are HTTP clients.
      expect(await whoAmI(d, { cookie: 'theme=dark; session=key-bob' })).toBe('Many doors for bob');
    }
  });

  it('[161,195] without credentials the refusal lists every way in, with a challenge each', async () => {
    const d = driver(binding);
    const outcome = await d.call('ListTasks', {}, {});
    expect(outcome.code).toBe('UNAUTHENTICATED');
    expect(outcome.message).toContain('this agent requires one of: an API key');
    expect(outcome.message).toContain('Basic <base64 of user:password>');
    if (binding === 'GRPC') return;
    expect(outcome.headers?.get('www-authenticate')).toBe(
      'ApiKey realm="a2a", in="header", name="X-API-Key", ApiKey realm="a2a", in="query", ' +
        'name="api_key", ApiKey realm="a2a", in="cookie", name="session", ' +
        'Basic realm="a2a", charset="UTF-8", Bearer realm="a2a"',
    );
  });

  it('[161] a wrong key or password is refused with the reason', async () => {
    const d = driver(binding);
    const key = await d.call('ListTasks', {}, { 'x-api-key': 'key-mallory' });
    expect(key.code).toBe('UNAUTHENTICATED');
    expect(key.message).toContain(`the credential for scheme 'key' was rejected`);
    const password = await d.call('ListTasks', {}, basic('carol', 'guess'));
    expect(password.message).toContain('wrong user name or password');
  });

  it('[196] a skill with its own requirements refuses a caller without its role (403)', async () => {
    const d = driver(binding);
    const toAdmin = { message: userMessage('hi', { metadata: { skillId: 'admin' } }) };
    const dave = await d.call('SendMessage', toAdmin, { authorization: 'Bearer tok-dave' });
    expect(dave.code).toBe('PERMISSION_DENIED');
    expect(dave.message).toContain(
      "skill 'admin': insufficient scope: scheme 'bearer' needs scope admin (granted: none)",
    );
    if (binding !== 'GRPC') {
      expect(dave.httpStatus).toBe(403);
      expect(dave.headers?.get('www-authenticate')).toContain('error="insufficient_scope"');
    }
    const alice = await d.call('SendMessage', toAdmin, { 'x-api-key': 'key-alice' });
    expect(alice.code).toBe('UNAUTHENTICATED'); // the skill needs the bearer scheme itself
    expect((await d.call('SendMessage', toAdmin, { authorization: 'Bearer tok-root' })).code).toBe(
      'OK',
    );
    const toEcho = { message: userMessage('hi', { metadata: { skillId: 'echo' } }) };
    expect((await d.call('SendMessage', toEcho, { authorization: 'Bearer tok-dave' })).code).toBe(
      'OK',
    );
  });

  it('[217,219] the extended card needs a principal and is tailored to it', async () => {
    const d = driver(binding);
    expect(await whoAmI(d, {})).toBe('UNAUTHENTICATED');
    expect(await whoAmI(d, { 'x-api-key': 'key-bob' })).toBe('Many doors for bob');
    expect(await whoAmI(d, { 'x-api-key': 'key-alice' })).toBe('Many doors for alice');
  });
});

describe('[193,194] credentials in the query string and the public card', () => {
  it('an API key in the declared query parameter authenticates', async () => {
    const headers = { 'a2a-version': '1.0' };
    const denied = await fetch(`${server.url}/a2a/rest/tasks`, { headers });
    expect(denied.status).toBe(401);
    const allowed = await fetch(`${server.url}/a2a/rest/tasks?api_key=key-alice`, { headers });
    expect(allowed.status).toBe(200);
  });

  it('the public card stays reachable without credentials', async () => {
    const response = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { securitySchemes: object }).securitySchemes).toHaveProperty(
      'key',
    );
  });
});

describe('[194] OpenAPI AND: schemes inside one requirement are all needed', () => {
  it('refuses one of two and accepts both', async () => {
    const both: AgentCardConfig = {
      ...card,
      securityRequirements: [{ schemes: { key: { list: [] }, bearer: { list: [] } } }],
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
    };
    const running = await serve(securedAgent(both), {
      logger: null,
      auth: {
        schemes: {
          key: { apiKey: staticSecrets({ k: { id: 'service-a' } }) },
          bearer: { bearer: staticSecrets({ t: { id: 'user-b' } }) },
        },
      },
    });
    try {
      const d = driverFor('JSONRPC', running);
      const one = await d.call('ListTasks', {}, { 'x-api-key': 'k' });
      expect(one.code).toBe('UNAUTHENTICATED');
      expect(one.message).toContain(
        "this agent requires an API key (scheme 'key'): send header X-API-Key: <key> and a bearer token (scheme 'bearer')",
      );
      const card = await d.call(
        'GetExtendedAgentCard',
        {},
        { 'x-api-key': 'k', authorization: 'Bearer t' },
      );
      // The identity is the first scheme of the satisfied requirement.
      expect((card.result as { name: string }).name).toBe('Many doors for service-a');
    } finally {
      await running.close();
    }
  });
});

describe('[194] an authenticator of your own', () => {
  it('yields the principal, refuses, or lets a caller in anonymously', async () => {
    const running = await serve(
      securedAgent({ ...card, securityRequirements: [], skills: card.skills.slice(0, 1) }),
      {
        logger: null,
        auth: {
          authenticate: (request) => {
            const user = request.headers.get('x-user');
            if (user === 'eve')
              return { failure: 'PERMISSION_DENIED', message: 'eve is banned', challenges: [] };
            return user === null ? undefined : { id: user };
          },
        },
      },
    );
    try {
      const d = driverFor('HTTP+JSON', running);
      expect(await whoAmI(d, { 'x-user': 'frank' })).toBe('Many doors for frank');
      const eve = await d.call('ListTasks', {}, { 'x-user': 'eve' });
      expect([eve.code, eve.httpStatus, eve.message]).toEqual([
        'PERMISSION_DENIED',
        403,
        expect.stringContaining('eve is banned'),
      ]);
      expect((await d.call('ListTasks', {}, {})).code).toBe('OK');
      expect(await whoAmI(d, {})).toBe('UNAUTHENTICATED'); // [217] even when anonymous calls are fine
    } finally {
      await running.close();
    }
  });
});

describe('[194] misconfiguration fails at start-up, never open', () => {
  const agent = securedAgent(card);
  it.each([
    [
      'a required scheme without verification',
      {},
      /the card requires scheme 'key' but auth\.schemes\.key/,
    ],
    [
      'skill requirements without skillOf',
      {
        schemes: {
          key: { apiKey: () => undefined },
          qkey: { apiKey: () => undefined },
          ckey: { apiKey: () => undefined },
          basic: { basic: () => undefined },
          bearer: { bearer: () => undefined },
        },
      },
      /a skill declares securityRequirements, but requests do not name a skill/,
    ],
    [
      'a scheme the card does not declare',
      { schemes: { typo: { apiKey: () => undefined } } },
      /auth\.schemes\.typo configures a scheme the card does not declare/,
    ],
    [
      'a setup of the wrong kind',
      { schemes: { key: { basic: () => undefined } } },
      /scheme 'key' is an API key scheme; configure \{ apiKey \}/,
    ],
  ])('%s', async (_name, auth, message) => {
    await expect(serve(agent, { logger: null, auth })).rejects.toThrow(message);
  });
});
