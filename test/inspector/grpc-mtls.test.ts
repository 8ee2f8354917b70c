/**
 * Mutual TLS on gRPC (spec §7.4, §10): the gRPC transport's `tls` option presents a client
 * certificate from PEM texts, and the inspector's server side gives its gRPC calls the same
 * certificate, key and CA files as its HTTP calls: through its API (`createInspector`), through
 * `a2a inspect --cert --key --cacert` and through `serve({ inspector: true })`. The agent is an
 * HTTPS agent whose gRPC interface is TLS demanding a client certificate from a test CA made by
 * `openssl`; without the certificate the call is refused, and the refusal asks for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcTransport } from '../../src/bindings/grpc/client.js';
import { Grpc03Transport } from '../../src/bindings/grpc/v03-client.js';
import { startInspect } from '../helpers/inspect-cli.js';
import { A2AClient } from '../../src/client/client.js';
import { grpc03TransportWith, grpcTransportWith } from '../../src/client/lazy-grpc.js';
import { DEFAULT_TRANSPORTS } from '../../src/client/default-transports.js';
import { userMessage } from '../../src/core/parts.js';
import { createInspector } from '../../src/inspector/handler.js';
import type { ServeResult } from '../../src/node/index.js';
import { serveHandler, type HandlerServer } from '../../src/node/serve-handler.js';
import { clientTlsPem, tlsClientFetch } from '../../src/node/tls-fetch.js';
import { isTransportError } from '../../src/transport/errors.js';
import {
  hasOpenssl,
  makePki,
  writePki,
  type PkiFiles,
  type TestPki,
} from '../security/fixtures/certs.js';
import { mtlsAgent } from './browser.js';

type Json = Record<string, unknown>;

/** The inspector API at `base` (`…/api/`), through `fetch`. */
function apiAt(base: string, fetchImpl: typeof fetch = fetch) {
  return (path: string, body: unknown) =>
    fetchImpl(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-a2a-inspector': '1', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Json>);
}

/** The events of one inspector stream (its SSE frames' `event`s), or the error it ended with. */
async function streamed(response: Response): Promise<{ kinds: string[]; error?: Json }> {
  const text = await response.text();
  const frames = text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => JSON.parse(f.slice(6)) as { event?: { kind: string }; error?: Json });
  const error = frames.find((f) => f.error)?.error;
  return {
    kinds: frames.flatMap((f) => (f.event ? [f.event.kind] : [])),
    ...(error ? { error } : {}),
  };
}

describe.skipIf(!hasOpenssl())('gRPC with client certificates (openssl CLI)', () => {
  let pki: TestPki;
  let files: PkiFiles;
  let agent: ServeResult;
  let grpcUrl: string;

  beforeAll(async () => {
    pki = makePki();
    files = writePki(pki);
    agent = await mtlsAgent(pki);
    grpcUrl = agent.grpcUrl ?? '';
  });
  afterAll(() => agent?.close());
  const mine = () => ({ cert: files.clientCert, key: files.clientKey, ca: files.ca });

  it('GrpcTransport tls: presents the certificate (the principal is its subject); none is refused', async () => {
    const mine = new GrpcTransport({
      url: grpcUrl,
      tls: { cert: pki.clientCert, key: pki.clientKey, ca: pki.ca },
    });
    const anonymous = new GrpcTransport({ url: grpcUrl, tls: { ca: pki.ca }, timeoutMs: 5000 });
    try {
      const sent = await mine.call('SendMessage', { message: userMessage('hi') });
      expect(JSON.stringify(sent)).toContain('mtls echo: hi (CN=alice,O=Example)');
      const refused = await anonymous
        .call('SendMessage', { message: userMessage('hi') })
        .catch((e: unknown) => e);
      expect(isTransportError(refused)).toBe(true);
      expect(String((refused as Error).message)).toMatch(/certificate required/);
    } finally {
      mine.close();
      anonymous.close();
    }
    expect(() => new GrpcTransport({ url: grpcUrl, tls: { cert: pki.clientCert } })).toThrow(
      'give the client certificate and its key together',
    );
  });

  it('grpc03TransportWith({ tls }): a 0.3 gRPC interface with client certificates (a2a.v1.A2AService)', async () => {
    const v03 = await mtlsAgent(pki, ['0.3']);
    const client = await A2AClient.connect(v03.url, {
      fetch: tlsClientFetch({ ca: files.ca }),
      compatTransports: {
        '0.3': { GRPC: grpc03TransportWith({ tls: clientTlsPem(mine()) }) },
      },
      protocolVersions: ['0.3'],
      preferredBinding: 'GRPC',
    });
    const anonymous = new Grpc03Transport({
      url: v03.grpcUrl ?? '',
      tls: { ca: pki.ca },
      timeoutMs: 5000,
    });
    try {
      expect(client.selectedInterface.protocolBinding).toBe('GRPC');
      expect(client.selectedInterface.protocolVersion).toBe('0.3');
      const sent = await client.sendMessage({ message: userMessage('hi') });
      expect(JSON.stringify(sent)).toContain('mtls echo: hi (CN=alice,O=Example)');
      const refused = await anonymous
        .call('SendMessage', { message: userMessage('hi') })
        .catch((e: unknown) => e);
      expect(isTransportError(refused)).toBe(true);
      expect(String((refused as Error).message)).toMatch(/certificate required/);
    } finally {
      client.close();
      anonymous.close();
      await v03.close();
    }
  });

  it('grpcTransportWith({ tls }): an A2AClient over gRPC with client certificates, loaded lazily', async () => {
    const client = await A2AClient.connect(agent.url, {
      fetch: tlsClientFetch({ ca: files.ca }),
      transports: { ...DEFAULT_TRANSPORTS, GRPC: grpcTransportWith({ tls: clientTlsPem(mine()) }) },
      preferredBinding: 'GRPC',
    });
    try {
      expect(client.selectedInterface.protocolBinding).toBe('GRPC');
      const kinds: string[] = [];
      for await (const event of client.sendStreamingMessage({ message: userMessage('s') })) {
        kinds.push(Object.keys(event)[0] ?? '');
      }
      expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    } finally {
      client.close();
    }
  });

  it('clientTlsPem reads and checks the files as tlsClientFetch does', () => {
    const pem = clientTlsPem({ cert: files.clientCert, key: files.clientKey, ca: files.ca });
    expect(pem.cert).toBe(pki.clientCert);
    expect(pem.key).toBe(pki.clientKey);
    expect(String(pem.ca).startsWith(pki.ca)).toBe(true); // then the system roots
    expect(() => clientTlsPem({ cert: '/nonexistent.pem', key: files.clientKey })).toThrow(
      'cannot read the client certificate file /nonexistent.pem',
    );
    expect(() => clientTlsPem({ cert: files.clientCert })).toThrow('give both');
  });

  describe('the inspector API', () => {
    let inspector: HandlerServer;
    let api: ReturnType<typeof apiAt>;

    beforeAll(async () => {
      // As `a2a inspect --cacert ca.pem`: the server certificate is from the test CA.
      const handler = createInspector({
        tls: { connect: tlsClientFetch, pem: clientTlsPem, files: { ca: files.ca } },
      });
      inspector = await serveHandler((request) => handler.handle(request), {
        port: 0,
        host: '127.0.0.1',
      });
      api = apiAt(`${inspector.url}/api/`);
    });
    afterAll(() => inspector?.close());

    it('refuses a gRPC call without the client certificate and asks for it; with it, unary and streamed calls work', async () => {
      const connected = await api('connect', { url: agent.url });
      expect(JSON.stringify(connected.report)).toContain('"GRPC"');
      const refused = await api('call', {
        operation: 'sendMessage',
        params: { message: userMessage('no cert') },
        binding: 'GRPC',
      });
      expect(refused.error).toMatchObject({ kind: 'transport', needsAuth: true });
      expect(JSON.stringify(refused.error)).toContain('certificate required');

      const set = await api('credentials', {
        scheme: 'mtls',
        fields: { cert: files.clientCert, key: files.clientKey },
      });
      expect(set.needs).toEqual([
        expect.objectContaining({ scheme: 'mtls', kind: 'mtls', configured: true }),
      ]);
      const sent = await api('call', {
        operation: 'sendMessage',
        params: { message: userMessage('grpc') },
        binding: 'GRPC',
      });
      expect(JSON.stringify(sent.result)).toContain('mtls echo: grpc (CN=alice,O=Example)');
      const stream = await streamed(
        await fetch(`${inspector.url}/api/stream`, {
          method: 'POST',
          headers: { 'x-a2a-inspector': '1', 'content-type': 'application/json' },
          body: JSON.stringify({
            operation: 'sendStreamingMessage',
            params: { message: userMessage('grpc stream') },
            binding: 'GRPC',
          }),
        }),
      );
      expect(stream.error).toBeUndefined();
      expect(stream.kinds).toEqual(['task', 'status', 'artifact', 'status']);

      // The wire view lists the gRPC calls with a grpcurl line naming the files, over TLS.
      const wire = (await (
        await fetch(`${inspector.url}/api/wire`, { headers: { 'x-a2a-inspector': '1' } })
      ).json()) as { entries: { via: string; curl: string; error?: string }[] };
      const grpcCalls = wire.entries.filter((e) => e.via === 'grpc');
      expect(grpcCalls.length).toBeGreaterThanOrEqual(3);
      expect(grpcCalls[0]?.error).toContain('certificate required');
      const last = grpcCalls.at(-1)?.curl ?? '';
      expect(last).toContain(`-cert '${files.clientCert}' -key '${files.clientKey}'`);
      expect(last).toContain(`-cacert '${files.ca}'`);
      expect(last).not.toContain('-plaintext');
      expect(JSON.stringify(wire)).not.toContain('PRIVATE KEY');
    });

    it('calls a 0.3 gRPC interface (GRPC@0.3) with the same files', async () => {
      const v03 = await mtlsAgent(pki, ['0.3']);
      try {
        const connected = await api('connect', { url: v03.url });
        expect(JSON.stringify(connected.report)).toContain('"GRPC@0.3"');
        await api('credentials', {
          scheme: 'mtls',
          fields: { cert: files.clientCert, key: files.clientKey },
        });
        const sent = await api('call', {
          operation: 'sendMessage',
          params: { message: userMessage('grpc 0.3') },
          binding: 'GRPC@0.3',
        });
        expect(JSON.stringify(sent.result)).toContain('mtls echo: grpc 0.3 (CN=alice,O=Example)');
        const wire = (await (
          await fetch(`${inspector.url}/api/wire`, { headers: { 'x-a2a-inspector': '1' } })
        ).json()) as { entries: { via: string; curl: string }[] };
        const last = wire.entries.filter((e) => e.via === 'grpc').at(-1)?.curl ?? '';
        expect(last).toContain('a2a.v1.A2AService');
      } finally {
        await api('connect', { url: agent.url });
        await v03.close();
      }
    });

    it('forgetting the certificate refuses gRPC calls again', async () => {
      await api('credentials', { scheme: 'mtls', fields: { ca: files.ca } });
      const refused = await api('call', {
        operation: 'listTasks',
        params: {},
        binding: 'GRPC',
      });
      expect(refused.error).toMatchObject({ kind: 'transport', needsAuth: true });
    });
  });

  it('a2a inspect --cert --key --cacert: gRPC calls present the files', async () => {
    const args = ['--cert', files.clientCert, '--key', files.clientKey, '--cacert', files.ca];
    const inspect = await startInspect([agent.url, ...args]);
    const api = apiAt(`${inspect.url}api/`);
    await api('connect', { url: agent.url });
    const sent = await api('call', {
      operation: 'sendMessage',
      params: { message: userMessage('via a2a inspect') },
      binding: 'GRPC',
    });
    expect(JSON.stringify(sent.result)).toContain('mtls echo: via a2a inspect (CN=alice');
    expect(await inspect.stop()).toBe(0);
  });
});
