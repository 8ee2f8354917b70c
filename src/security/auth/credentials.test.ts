import { describe, expect, it } from 'vitest';
import {
  apiKeyOf,
  authorizationCredentials,
  constantTimeEqual,
  decodeBasic,
  requestCookies,
} from './credentials.js';
import type { AuthRequest } from './types.js';

function request(headers: Record<string, string>, query = ''): AuthRequest {
  return {
    binding: 'HTTP+JSON',
    headers: { get: (name) => headers[name] ?? null },
    query: new URLSearchParams(query),
  };
}

describe('credentials', () => {
  it('reads the Authorization credentials of one scheme, case-insensitively', () => {
    const req = request({ authorization: 'bEaReR  abc.def ' });
    expect(authorizationCredentials(req, 'Bearer')).toBe('abc.def');
    expect(authorizationCredentials(req, 'Basic')).toBeUndefined();
    expect(authorizationCredentials(request({ authorization: 'Bearer' }), 'Bearer')).toBe('');
    expect(authorizationCredentials(request({}), 'Bearer')).toBeUndefined();
  });

  it('decodes Basic credentials as UTF-8, splitting at the first colon (RFC 7617)', () => {
    const encoded = Buffer.from('zoë:pa:ss').toString('base64');
    expect(decodeBasic(encoded)).toEqual({ username: 'zoë', password: 'pa:ss' });
    expect(decodeBasic(Buffer.from('nocolon').toString('base64'))).toBeUndefined();
    expect(decodeBasic('%%%')).toBeUndefined();
  });

  it('finds API keys in a header, the query or a cookie', () => {
    const req = request({ 'x-key': 'h', cookie: 'a=1; key="c%20v"; key=second' }, 'api_key=q');
    expect(apiKeyOf(req, 'header', 'X-Key')).toBe('h');
    expect(apiKeyOf(req, 'query', 'api_key')).toBe('q');
    expect(apiKeyOf(req, 'cookie', 'key')).toBe('c v');
    expect(requestCookies({ ...req, cookies: { key: 'given' } })).toEqual({ key: 'given' });
  });

  it('compares secrets in full', () => {
    expect(constantTimeEqual('secret', 'secret')).toBe(true);
    expect(constantTimeEqual('secret', 'secreT')).toBe(false);
    expect(constantTimeEqual('secret', 'secret2')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
