/**
 * The authentication matrix (issue 6, item 6): every operation × every binding × {no credentials,
 * wrong credentials, valid but insufficient scope, valid}. The card requires an OpenID Connect
 * token with scope `a2a.invoke`; refused calls aim at real task and config ids of the caller, so
 * a 401/403 instead of 404 shows authentication runs before any lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDINGS, driverFor, type Binding, type Driver } from './fixtures/drivers.js';
import { startIssuer, type TestIssuer } from './fixtures/issuer.js';
import { ALL_OPERATIONS, createOwned, paramsFor, type Owned } from './fixtures/resources.js';
import {
  oidcAuth,
  SCOPE,
  securedAgent,
  securedCard,
  startSecured,
  type SecureServer,
} from './fixtures/server.js';

type Credentials = 'none' | 'wrong' | 'insufficient' | 'valid';

/** The expected outcome of each kind of credentials, for every operation. */
const EXPECTED: Readonly<
  Record<
    Credentials,
    { code: string; http: number; grpc?: number; challenge?: RegExp; says: RegExp }
  >
> = {
  none: {
    code: 'UNAUTHENTICATED',
    http: 401,
    grpc: 16,
    challenge: /^Bearer realm="a2a", scope="a2a\.invoke"$/,
    says: /requires an OpenID Connect bearer token \(scheme 'oidc'\) with scope a2a\.invoke: send (Authorization|metadata authorization): Bearer <token>/,
  },
  wrong: {
    code: 'UNAUTHENTICATED',
    http: 401,
    grpc: 16,
    challenge:
      /^Bearer realm="a2a", scope="a2a\.invoke", error="invalid_token", error_description="the token signature does not verify"$/,
    says: /scheme 'oidc' was rejected: the token signature does not verify/,
  },
  insufficient: {
    code: 'PERMISSION_DENIED',
    http: 403,
    grpc: 7,
    challenge: /^Bearer realm="a2a", scope="a2a\.invoke", error="insufficient_scope"/,
    says: /insufficient scope: scheme 'oidc' needs scope a2a\.invoke \(granted: profile\)/,
  },
  valid: { code: 'OK', http: 200, says: /^$/ },
};

describe('[161,162,194,195,196,198] authentication matrix: operation × binding × credentials', () => {
  let issuer: TestIssuer;
  let server: SecureServer;
  const headers = {} as Record<Credentials, Record<string, string>>;
  const drivers = new Map<Binding, Driver>();
  const owned = new Map<Binding, Owned>();

  beforeAll(async () => {
    issuer = await startIssuer();
    server = await startSecured(securedAgent(securedCard(issuer)), { auth: oidcAuth() });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    headers.none = {};
    headers.wrong = bearer(await issuer.token({ sub: 'alice', scope: SCOPE, foreignKey: true }));
    headers.insufficient = bearer(await issuer.token({ sub: 'alice', scope: 'profile' }));
    headers.valid = bearer(await issuer.token({ sub: 'alice', scope: `profile ${SCOPE}` }));
    for (const binding of BINDINGS) {
      const driver = driverFor(binding, server);
      drivers.set(binding, driver);
      owned.set(binding, await createOwned(driver, headers.valid));
    }
  });

  afterAll(async () => {
    for (const driver of drivers.values()) driver.close();
    await server?.close();
    await issuer?.close();
  });

  const cells = BINDINGS.flatMap((binding) =>
    ALL_OPERATIONS.flatMap((operation) =>
      (['none', 'wrong', 'insufficient', 'valid'] as const).map((credentials) => ({
        binding,
        operation,
        credentials,
      })),
    ),
  );

  it('has one cell per operation, binding and kind of credentials (11 × 3 × 4)', () => {
    expect(cells).toHaveLength(132);
  });

  for (const { binding, operation, credentials } of cells) {
    const expected = EXPECTED[credentials];
    it(`${operation} over ${binding} with ${credentials} credentials → ${expected.code}`, async () => {
      const driver = drivers.get(binding);
      const mine = owned.get(binding);
      if (driver === undefined || mine === undefined) throw new Error('setup failed');
      const fresh = credentials === 'valid' ? { driver, headers: headers.valid } : undefined;
      const params = await paramsFor(operation, mine, fresh);
      const outcome = await driver.call(operation, params, headers[credentials]);
      expect({ code: outcome.code, message: outcome.message }).toEqual({
        code: expected.code,
        message: expect.stringMatching(expected.says) as unknown,
      });
      if (binding === 'GRPC') {
        if (expected.grpc !== undefined) expect(outcome.grpcStatus).toBe(expected.grpc);
        return;
      }
      expect(outcome.httpStatus).toBe(expected.http);
      const challenge = outcome.headers?.get('www-authenticate') ?? undefined;
      if (expected.challenge === undefined) expect(challenge).toBeUndefined();
      else expect(challenge).toMatch(expected.challenge);
    });
  }

  it('[161] an expired token, a token for another audience or issuer is rejected with the reason', async () => {
    const driver = drivers.get('HTTP+JSON');
    if (driver === undefined) throw new Error('setup failed');
    const cases: [Promise<string>, RegExp][] = [
      [issuer.token({ sub: 'alice', scope: SCOPE, expiresIn: -120 }), /the token has expired/],
      [
        issuer.token({ sub: 'alice', scope: SCOPE, audience: 'https://other.test' }),
        /another audience/,
      ],
      [
        issuer.token({ sub: 'alice', scope: SCOPE, issuer: 'https://evil.test' }),
        /issuer this agent does not trust/,
      ],
    ];
    for (const [token, reason] of cases) {
      const outcome = await driver.call(
        'ListTasks',
        {},
        { authorization: `Bearer ${await token}` },
      );
      expect(outcome.code).toBe('UNAUTHENTICATED');
      expect(outcome.message).toMatch(reason);
    }
    expect(server.internalErrors).toEqual([]);
  });
});
