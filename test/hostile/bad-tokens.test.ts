/**
 * Hostile bearer tokens against an OpenID Connect protected agent (spec §7.4, requirement 194 of test/conformance/requirements.ts;
 * RFC 6750 §3.1), over JSON-RPC, HTTP+JSON and gRPC, with a real issuer on loopback that counts
 * every fetch it receives and can be made unreachable:
 * - a token that cannot be valid is a 401 `invalid_token` and never makes the server fetch;
 * - an unreachable issuer is a start-up warning, then 503 UNAVAILABLE with Retry-After per
 *   request (the token may be right: RFC 6750's `invalid_token` would send the client for a new
 *   one), never 500, and at most one fetch attempt per cooldown, whatever the request rate;
 * - once the issuer answers again, tokens verify again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { jsonRpcDriver } from '../helpers/jsonrpc-driver.js';
import { restDriver } from '../helpers/rest-driver.js';
import type { BindingDriver, CallResult } from '../helpers/driver.js';
import type { BindingName } from '../helpers/wire.js';
import { AUDIENCE, startIssuer, type TestIssuer } from '../security/fixtures/issuer.js';
import {
  SCOPE,
  securedAgent,
  securedCard,
  startSecured,
  type SecureServer,
} from '../security/fixtures/server.js';

const BINDINGS: readonly BindingName[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
const GRPC_UNAUTHENTICATED = 16;
const GRPC_UNAVAILABLE = 14;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** Tokens that cannot be valid, judged from their bytes alone. */
function malformedTokens(): Record<string, string> {
  return {
    'not a JWT': 'not.a.jwt',
    'one segment': 'garbage',
    'five segments (JWE shape)': 'a.b.c.d.e',
    'header not JSON': `${Buffer.from('{oops').toString('base64url')}.${b64({ exp: inAnHour() })}.c2ln`,
    'alg none': `${b64({ alg: 'none' })}.${b64({ sub: 'x', exp: inAnHour() })}.`,
    'alg HS256': `${b64({ alg: 'HS256' })}.${b64({ sub: 'x', exp: inAnHour() })}.c2ln`,
    expired: `${b64({ alg: 'ES256', kid: 'issuer-key' })}.${b64({ sub: 'x', exp: 1000 })}.c2ln`,
    'no exp': `${b64({ alg: 'ES256', kid: 'issuer-key' })}.${b64({ sub: 'x' })}.c2ln`,
  };
}

const servers: SecureServer[] = [];
const issuers: TestIssuer[] = [];
const drivers: (BindingDriver & { close?: () => void })[] = [];
afterAll(async () => {
  for (const d of drivers) d.close?.();
  for (const s of servers) await s.close();
  for (const i of issuers) await i.close();
});

async function issuer(): Promise<TestIssuer> {
  const started = await startIssuer();
  issuers.push(started);
  return started;
}

/** The secured agent for `iss`, its JWT checks with `cooldownMs`; warnings go to `warnings`. */
async function secured(
  iss: TestIssuer,
  cooldownMs: number,
  warnings: string[] = [],
): Promise<SecureServer> {
  const server = await startSecured(securedAgent(securedCard(iss)), {
    auth: {
      schemes: { oidc: { jwt: { audience: AUDIENCE, allowInsecure: true, cooldownMs } } },
    },
    logger: { warn: (message: string) => warnings.push(message), error: () => undefined },
  });
  servers.push(server);
  return server;
}

function driver(binding: BindingName, server: SecureServer): BindingDriver {
  const d =
    binding === 'JSONRPC'
      ? jsonRpcDriver(server.url)
      : binding === 'HTTP+JSON'
        ? restDriver(server.url)
        : grpcDriver(server.grpcUrl);
  drivers.push(d);
  return d;
}

const list = (d: BindingDriver, token: string) =>
  d.call('ListTasks', {}, { headers: { authorization: `Bearer ${token}` } });

/** Resolves once `check` holds, polling; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function expectUnauthenticated(binding: BindingName, result: CallResult): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  if (binding === 'GRPC') {
    expect(result.error.grpcCode).toBe(GRPC_UNAUTHENTICATED);
  } else {
    expect(result.error.httpStatus).toBe(401);
    expect(result.headers.get('www-authenticate')).toContain('error="invalid_token"');
  }
}

function expectUnavailable(binding: BindingName, result: CallResult): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.message).toContain('cannot be reached');
  if (binding === 'GRPC') {
    expect(result.error.grpcCode).toBe(GRPC_UNAVAILABLE);
  } else {
    expect(result.error.httpStatus).toBe(503);
    expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    if (binding === 'JSONRPC') expect(result.error.rpcCode).toBe(-31503);
  }
}

describe('[194] malformed bearer tokens with a reachable issuer', () => {
  let iss: TestIssuer;
  let server: SecureServer;
  beforeAll(async () => {
    iss = await issuer();
    server = await secured(iss, 60_000);
    await until(() => (iss.hits.get('/jwks') ?? 0) > 0); // the start-up fetch is done
  });
  afterEach(() => expect(server.internalErrors).toEqual([]));

  for (const binding of BINDINGS) {
    it(`are 401 invalid_token without a single fetch (${binding})`, async () => {
      const d = driver(binding, server);
      const before = iss.fetches();
      for (const [name, token] of Object.entries(malformedTokens())) {
        const result = await list(d, token);
        expect.soft(result.ok, name).toBe(false);
        expectUnauthenticated(binding, result);
      }
      // Well-formed but forged: a key the issuer does not publish, under a known or unknown kid.
      // The keys fetched at start-up decide: an unknown kid refetches at most once per cooldown.
      for (const options of [{ foreignKey: true }, { kid: 'no-such-key' }, { kid: 'other' }]) {
        const forged = await iss.token({ sub: 'mallory', scope: SCOPE, ...options });
        expectUnauthenticated(binding, await list(d, forged));
      }
      expect(iss.fetches()).toBe(before);
      const good = await iss.token({ sub: 'alice', scope: SCOPE });
      expect((await list(d, good)).ok).toBe(true);
    });
  }
});

describe('[194] an unreachable issuer', () => {
  let iss: TestIssuer;
  let server: SecureServer;
  const warnings: string[] = [];
  beforeAll(async () => {
    iss = await issuer();
    iss.setDown(true);
    server = await secured(iss, 60_000, warnings);
    await until(() => warnings.length > 0);
  });
  afterEach(() => expect(server.internalErrors).toEqual([]));

  it('is a clear start-up warning, after one fetch attempt', () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('cannot reach a token issuer');
    expect(warnings[0]).toContain(iss.discoveryUrl);
    expect(warnings[0]).toContain('503');
    expect(iss.fetches()).toBe(1);
  });

  for (const binding of BINDINGS) {
    it(`answers 503 UNAVAILABLE (not 500) and fetches nothing within the cooldown (${binding})`, async () => {
      const d = driver(binding, server);
      const token = await iss.token({ sub: 'alice', scope: SCOPE });
      for (let i = 0; i < 10; i++) expectUnavailable(binding, await list(d, token));
      for (const bad of Object.values(malformedTokens())) {
        expectUnauthenticated(binding, await list(d, bad));
      }
      expect(iss.fetches()).toBe(1);
    });
  }
});

describe('[194] an issuer that comes back, or is gone for good', () => {
  it('verifies again after the cooldown, with one fetch attempt per cooldown', async () => {
    const iss = await issuer();
    iss.setDown(true);
    const warnings: string[] = [];
    const server = await secured(iss, 300, warnings);
    await until(() => warnings.length > 0);
    const token = await iss.token({ sub: 'alice', scope: SCOPE });
    const rest = driver('HTTP+JSON', server);
    expectUnavailable('HTTP+JSON', await list(rest, token));
    iss.setDown(false);
    // No assertion on time: retry until the cooldown has passed and the issuer was fetched.
    let result = await list(rest, token);
    while (!result.ok) {
      expectUnavailable('HTTP+JSON', result);
      await new Promise((resolve) => setTimeout(resolve, 50));
      result = await list(rest, token);
    }
    for (const binding of BINDINGS)
      expect((await list(driver(binding, server), token)).ok).toBe(true);
    // Start-up attempt, then the metadata and the JWKS once the issuer answered.
    expect(iss.fetches()).toBe(3);
    expect(server.internalErrors).toEqual([]);
  });

  it('answers 503, never 500, when nothing listens at the issuer any more', async () => {
    const iss = await issuer();
    const token = await iss.token({ sub: 'alice', scope: SCOPE });
    await iss.close(); // its port now refuses connections
    const warnings: string[] = [];
    const server = await secured(iss, 60_000, warnings);
    await until(() => warnings.length > 0);
    expect(warnings[0]).toMatch(/cannot reach a token issuer/);
    for (const binding of BINDINGS) {
      const d = driver(binding, server);
      expectUnavailable(binding, await list(d, token));
      expectUnauthenticated(binding, await list(d, 'not.a.jwt'));
    }
    expect(server.internalErrors).toEqual([]);
  });
});
