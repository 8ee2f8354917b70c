/**
 * What a refusal looks like on the wire (requirements 157, 158, 195 of test/conformance/requirements.ts): HTTP+JSON answers a
 * google.rpc.Status with the HTTP status; JSON-RPC answers the same HTTP status with a JSON-RPC
 * error object that echoes the request id and carries the application code -31401/-31403/-31429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticSecrets } from '../../src/security/auth/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';

const card: AgentCardConfig = {
  name: 'Wire',
  description: 'Refusal shapes',
  version: '1.0.0',
  capabilities: { streaming: true },
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'opaque' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: ['write'] } } }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

let server: SecureServer;
beforeAll(async () => {
  const tokens = staticSecrets({
    reader: { id: 'reader', scopes: ['read'] },
    writer: { id: 'writer', scopes: ['read', 'write'] },
  });
  server = await startSecured(securedAgent(card), {
    auth: { schemes: { bearer: { bearer: tokens } }, realm: 'wire-test' },
  });
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('[157,158,195] refusals on the wire', () => {
  it('JSON-RPC: HTTP 401, WWW-Authenticate, and an error object with the request id', async () => {
    const response = await post('/a2a/jsonrpc', {
      jsonrpc: '2.0',
      id: 'req-7',
      method: 'ListTasks',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="wire-test", scope="write"',
    );
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'req-7',
      error: {
        code: -31401,
        message:
          "this agent requires a bearer token (scheme 'bearer') with scope write: send Authorization: Bearer <token>",
      },
    });
  });

  it('JSON-RPC: a body that cannot be read is still refused first, with id null', async () => {
    const response = await post('/a2a/jsonrpc', '{not json');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { id: unknown }).id).toBeNull();
  });

  it('JSON-RPC: HTTP 403 and -31403 for a token without the scope', async () => {
    const response = await post(
      '/a2a/jsonrpc',
      { jsonrpc: '2.0', id: 3, method: 'ListTasks', params: {} },
      { authorization: 'Bearer reader' },
    );
    expect(response.status).toBe(403);
    const body = (await response.json()) as {
      id: number;
      error: { code: number; message: string };
    };
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-31403);
    expect(body.error.message).toBe(
      "insufficient scope: scheme 'bearer' needs scope write (granted: read)",
    );
  });

  it('HTTP+JSON: a google.rpc.Status with code, status name and message', async () => {
    const response = await post(
      '/a2a/rest/message:send',
      { message: {} },
      { authorization: 'Bearer nope' },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="wire-test", scope="write", error="invalid_token", error_description="the Bearer credentials were rejected"',
    );
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toEqual({
      code: 401,
      status: 'UNAUTHENTICATED',
      message: expect.stringContaining(
        "the credential for scheme 'bearer' was rejected",
      ) as unknown,
      details: [],
    });
  });

  it('[198] refuses before validating: a malformed request without credentials is a 401, not a 400', async () => {
    const response = await post('/a2a/rest/message:send', { message: 'not a message' });
    expect(response.status).toBe(401);
    const valid = await post(
      '/a2a/rest/message:send',
      { message: 'not a message' },
      { authorization: 'Bearer writer' },
    );
    expect(valid.status).toBe(400);
  });
});
