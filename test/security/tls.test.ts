/**
 * HTTPS serving and mutual TLS (spec §7.1, §7.4; requirements 191, 192, 194 of test/conformance/requirements.ts): serve() with a
 * certificate and key, HSTS, and the mtls scheme: the principal is the client certificate's
 * subject on HTTPS and on gRPC over TLS alike.
 */
import { request } from 'node:https';
import { credentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcTransport } from '../../src/bindings/grpc/client.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { hasOpenssl, makePki, type TestPki } from './fixtures/certs.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

/** One HTTPS request trusting the test CA, optionally with a client certificate. */
function https(
  url: string,
  pki: TestPki,
  options: { body?: string; cert?: string; key?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.body === undefined ? 'GET' : 'POST',
        ca: pki.ca,
        ...(options.cert === undefined ? {} : { cert: options.cert, key: options.key }),
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const rpc = (method: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} });

const card: AgentCardConfig = {
  name: 'TLS agent',
  description: 'Mutual TLS',
  version: '1.0.0',
  capabilities: { streaming: true, extendedAgentCard: true },
  securitySchemes: { mtls: { mtlsSecurityScheme: { description: 'a certificate from our CA' } } },
  securityRequirements: [{ schemes: { mtls: { list: [] } } }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

describe.skipIf(!hasOpenssl())('[191,194] HTTPS and mutual TLS (openssl CLI)', () => {
  let pki: TestPki;
  let server: SecureServer;

  beforeAll(async () => {
    pki = makePki();
    server = await startSecured(securedAgent(card), {
      tls: { cert: pki.serverCert, key: pki.serverKey, ca: pki.ca, requestCert: true },
      auth: { schemes: { mtls: { mtls: true } } },
    });
  });
  afterAll(async () => server?.close());

  it('[191] serves the card over HTTPS with HSTS, and advertises https URLs', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const reply = await https(`${server.url}/.well-known/agent-card.json`, pki);
    expect(reply.status).toBe(200);
    expect(reply.headers['strict-transport-security']).toBe('max-age=31536000');
    const interfaces = (reply.json as { supportedInterfaces: { url: string }[] })
      .supportedInterfaces;
    expect(interfaces[0]?.url).toBe(`${server.url}/a2a/jsonrpc`);
  });

  it('[161,194] refuses a call without a client certificate, saying so', async () => {
    const reply = await https(`${server.url}/a2a/jsonrpc`, pki, { body: rpc('ListTasks') });
    expect(reply.status).toBe(401);
    expect(JSON.stringify(reply.json)).toContain(
      "this agent requires a TLS client certificate (scheme 'mtls')",
    );
  });

  it('[161] refuses a certificate no trusted CA issued', async () => {
    const reply = await https(`${server.url}/a2a/jsonrpc`, pki, {
      body: rpc('ListTasks'),
      cert: pki.rogueCert,
      key: pki.rogueKey,
    });
    expect(reply.status).toBe(401);
    expect(JSON.stringify(reply.json)).toContain('the client certificate is not trusted');
  });

  it('[194] takes the principal from the certificate subject, on HTTPS and gRPC alike', async () => {
    const mine = { cert: pki.clientCert, key: pki.clientKey };
    const reply = await https(`${server.url}/a2a/jsonrpc`, pki, {
      body: rpc('GetExtendedAgentCard'),
      ...mine,
    });
    expect(reply.status).toBe(200);
    expect((reply.json as { result: { name: string } }).result.name).toBe(
      'TLS agent for CN=alice,O=Example',
    );
    const grpc = new GrpcTransport({
      url: server.grpcUrl,
      credentials: credentials.createSsl(
        Buffer.from(pki.ca),
        Buffer.from(pki.clientKey),
        Buffer.from(pki.clientCert),
      ),
    });
    try {
      const viaGrpc = await grpc.call('GetExtendedAgentCard', {});
      expect(viaGrpc.name).toBe('TLS agent for CN=alice,O=Example');
    } finally {
      grpc.close();
    }
  });

  it('[191] gRPC over TLS with client certificates required refuses a channel without one', async () => {
    const grpc = new GrpcTransport({
      url: server.grpcUrl,
      timeoutMs: 3000,
      credentials: credentials.createSsl(Buffer.from(pki.ca)),
    });
    try {
      await expect(grpc.call('ListTasks', {})).rejects.toMatchObject({ name: 'TransportError' });
    } finally {
      grpc.close();
    }
  });
});
