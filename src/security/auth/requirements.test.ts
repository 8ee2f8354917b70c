import { describe, expect, it } from 'vitest';
import type { SecurityRequirement, SecurityScheme } from '../../core/schemas/index.js';
import type { NamedScheme } from './challenge.js';
import { authorize, decide, type DecisionContext } from './requirements.js';
import { isAuthFailure } from './types.js';
import type { SchemeCheck } from './verifiers.js';

const SCHEMES: Record<string, SecurityScheme> = {
  key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
  oauth: {
    oauth2SecurityScheme: {
      flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { read: 'r', write: 'w' } } },
    },
  },
  basic: { httpAuthSecurityScheme: { scheme: 'basic' } },
  mtls: { mtlsSecurityScheme: {} },
};
const context: DecisionContext = {
  schemes: new Map<string, NamedScheme>(
    Object.entries(SCHEMES).map(([name, scheme]) => [name, { name, scheme }]),
  ),
  realm: 'r',
  binding: 'HTTP+JSON',
};

const ok = (id: string, scopes: string[] = []): SchemeCheck => ({
  status: 'ok',
  principal: { id, scopes },
});
const MISSING: SchemeCheck = { status: 'missing' };
const checks = (entries: Record<string, SchemeCheck>) => new Map(Object.entries(entries));
const req = (schemes: Record<string, string[]>): SecurityRequirement => ({
  schemes: Object.fromEntries(Object.entries(schemes).map(([k, list]) => [k, { list }])),
});

describe('decide (OpenAPI semantics)', () => {
  it('answers UNAVAILABLE when an unverifiable credential decides, not when another suffices', () => {
    const down: SchemeCheck = {
      status: 'unavailable',
      reason: 'the token issuer cannot be reached',
      retryAfterSeconds: 7,
    };
    const alternatives = [req({ oauth: [] }), req({ key: [] })];
    expect(decide(alternatives, checks({ oauth: down, key: ok('k') }), context)).toMatchObject({
      id: 'k',
    });
    expect(decide(alternatives, checks({ oauth: down, key: MISSING }), context)).toEqual({
      failure: 'UNAVAILABLE',
      message:
        "the credentials cannot be checked now, retry later: scheme 'oauth': the token issuer cannot be reached",
      challenges: [],
      retryAfterSeconds: 7,
    });
    // Anonymous access allowed: a credential that was sent but cannot be checked is not ignored.
    expect(decide([req({})], checks({ oauth: down }), context)).toMatchObject({
      failure: 'UNAVAILABLE',
    });
  });

  it('takes the first satisfied alternative (OR) and its first scheme as the identity', () => {
    const result = decide(
      [req({ oauth: ['write'] }), req({ key: [], basic: [] })],
      checks({ oauth: ok('o', ['read']), key: ok('k'), basic: ok('b') }),
      context,
    );
    expect(result).toEqual({
      id: 'k',
      scopes: [],
      scheme: 'key',
      schemes: { oauth: ['read'], key: [], basic: [] },
    });
  });

  it('needs every scheme of a requirement (AND)', () => {
    const result = decide(
      [req({ key: [], basic: [] })],
      checks({ key: ok('k'), basic: MISSING }),
      context,
    );
    expect(isAuthFailure(result) && result.failure).toBe('UNAUTHENTICATED');
  });

  it('answers 403 when the schemes authenticated but a scope is missing', () => {
    const result = decide(
      [req({ oauth: ['read', 'write'] })],
      checks({ oauth: ok('o', ['read']) }),
      context,
    );
    expect(result).toEqual({
      failure: 'PERMISSION_DENIED',
      message: "insufficient scope: scheme 'oauth' needs scope write (granted: read)",
      challenges: [
        'Bearer realm="r", scope="read write", error="insufficient_scope", error_description="needs write"',
      ],
    });
  });

  it('lets anonymous callers in with no requirements or an empty one, unless a credential is wrong', () => {
    expect(decide([], checks({ key: MISSING }), context)).toBeUndefined();
    expect(
      decide([req({ key: [] }), { schemes: {} }], checks({ key: MISSING }), context),
    ).toBeUndefined();
    expect(decide([], checks({ key: ok('k') }), context)).toMatchObject({ id: 'k' });
    const wrong = decide([], checks({ key: { status: 'invalid', reason: 'bad key' } }), context);
    expect(isAuthFailure(wrong) && wrong.message).toContain("scheme 'key' was rejected: bad key");
  });

  it('describes every alternative and challenges each scheme once; mTLS has no challenge', () => {
    const result = decide(
      [req({ mtls: [] }), req({ basic: [], key: [] }), req({ key: [] })],
      checks({ mtls: MISSING, basic: MISSING, key: MISSING }),
      context,
    );
    expect(result).toEqual({
      failure: 'UNAUTHENTICATED',
      message:
        "this agent requires one of: a TLS client certificate (scheme 'mtls'): connect with a certificate issued by a CA this agent trusts; or a user name and password (scheme 'basic'): send Authorization: Basic <base64 of user:password> and an API key (scheme 'key'): send header X-Key: <key>; or an API key (scheme 'key'): send header X-Key: <key>",
      challenges: [
        'Basic realm="r", charset="UTF-8"',
        'ApiKey realm="r", in="header", name="X-Key"',
      ],
    });
  });
});

describe('authorize (skill requirements against a principal)', () => {
  const principal = { id: 'p', scheme: 'oauth', schemes: { oauth: ['read'], key: [] } };
  it('allows when one requirement is met by the schemes the principal passed', () => {
    expect(authorize([req({ oauth: ['read'] })], principal, context)).toBeUndefined();
    expect(authorize([req({ basic: [] }), req({ key: [] })], principal, context)).toBeUndefined();
    expect(authorize([], undefined, context)).toBeUndefined();
  });

  it('refuses with 403 for a missing scope and 401 for a missing scheme', () => {
    expect(authorize([req({ oauth: ['write'] })], principal, context)?.failure).toBe(
      'PERMISSION_DENIED',
    );
    expect(authorize([req({ basic: [] })], principal, context)?.failure).toBe('UNAUTHENTICATED');
    expect(authorize([req({ key: [] })], undefined, context)?.failure).toBe('UNAUTHENTICATED');
  });
});
