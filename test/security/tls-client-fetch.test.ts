/**
 * tlsClientFetch (src/node/tls-fetch.ts): a2a-kit's client presenting a client certificate to an
 * HTTPS agent whose card requires mutual TLS (spec §7.4), through `fetch`: unary and streamed
 * calls, the principal is the certificate's subject, no certificate or a rogue one is refused,
 * missing files are named, an abort ends a stream. And `a2a inspect --cert --key --cacert`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { startInspect } from '../helpers/inspect-cli.js';
import { A2AClient } from '../../src/client/client.js';
import { isA2AError } from '../../src/core/errors.js';
import { userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { tlsClientFetch } from '../../src/node/tls-fetch.js';
import { createAgent, textOf } from '../../src/server/index.js';
import { isTransportError } from '../../src/transport/errors.js';
import { hasOpenssl, makePki, writePki, type PkiFiles } from './fixtures/certs.js';

const statusOf = (error: unknown) =>
  isTransportError(error) ? error.status : isA2AError(error) ? error.code : String(error);

describe.skipIf(!hasOpenssl())('tlsClientFetch: mutual TLS through fetch (openssl CLI)', () => {
  let files: PkiFiles;
  let agent: ServeResult;

  beforeAll(async () => {
    const pki = makePki();
    files = writePki(pki);
    agent = await serve(
      createAgent({
        card: {
          name: 'mTLS',
          description: 'Wants a client certificate',
          version: '1.0.0',
          capabilities: { streaming: true },
          securitySchemes: { mtls: { mtlsSecurityScheme: {} } },
          securityRequirements: [{ schemes: { mtls: { list: [] } } }],
          skills: [{ id: 'e', name: 'E', description: 'E', tags: ['t'] }],
        },
        async *execute({ message, task, call, signal }) {
          yield task.working();
          if (textOf(message) === 'hold') {
            await new Promise((resolve) => signal.addEventListener('abort', resolve));
            return;
          }
          yield task.artifact(`${textOf(message)} from ${call.principal?.id ?? 'nobody'}`);
          yield task.completed();
        },
      }),
      {
        logger: null,
        tls: { cert: pki.serverCert, key: pki.serverKey, ca: pki.ca, requestCert: true },
        auth: { schemes: { mtls: { mtls: true } } },
      },
    );
  });
  afterAll(() => agent?.close());

  const client = (fetch: typeof globalThis.fetch) => A2AClient.connect(agent.url, { fetch });

  it('presents the certificate: unary and streamed calls, the principal is its subject', async () => {
    const c = await client(
      tlsClientFetch({ cert: files.clientCert, key: files.clientKey, ca: files.ca }),
    );
    const sent = await c.sendMessage({ message: userMessage('hi') });
    expect(JSON.stringify(sent)).toMatch(/hi from .*alice/);
    const events: string[] = [];
    for await (const event of c.sendStreamingMessage({ message: userMessage('streamed') })) {
      events.push(Object.keys(event)[0] ?? '');
    }
    expect(events).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });

  it('without a certificate, or with one the agent does not trust, the call is refused (401)', async () => {
    const anonymous = await client(tlsClientFetch({ ca: files.ca }));
    const refused = await anonymous.sendMessage({ message: userMessage('hi') }).catch((e) => e);
    expect(statusOf(refused)).toBe(401);
    const rogue = await client(
      tlsClientFetch({ cert: files.rogueCert, key: files.rogueKey, ca: files.ca }),
    );
    const forged = await rogue.sendMessage({ message: userMessage('hi') }).catch((e) => e);
    expect(statusOf(forged)).toBe(401);
  });

  it('without the CA the server certificate is not trusted', async () => {
    const untrusting = tlsClientFetch({ cert: files.clientCert, key: files.clientKey });
    await expect(untrusting(`${agent.url}/.well-known/agent-card.json`)).rejects.toThrow(
      /fetch failed: .*(self-signed|unable to verify|certificate)/i,
    );
  });

  it('names a missing or wrong file, and wants the key with the certificate', () => {
    expect(() => tlsClientFetch({ cert: '/nonexistent.pem', key: files.clientKey })).toThrow(
      'cannot read the client certificate file /nonexistent.pem',
    );
    expect(() => tlsClientFetch({ cert: files.clientKey, key: files.clientKey })).toThrow(
      'holds no PEM certificate',
    );
    expect(() => tlsClientFetch({ cert: files.clientCert })).toThrow(
      'give both the client certificate file and its private key file',
    );
  });

  it('ends a stream when its signal aborts', async () => {
    const c = await client(
      tlsClientFetch({ cert: files.clientCert, key: files.clientKey, ca: files.ca }),
    );
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of c.sendStreamingMessage(
        { message: userMessage('hold') },
        { signal: controller.signal },
      )) {
        seen.push(Object.keys(event)[0] ?? '');
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(reading).rejects.toThrow();
    expect(seen).toEqual(['task', 'statusUpdate']);
  });

  it('a2a inspect --cert --key --cacert: the inspector calls the agent with the files', async () => {
    const args = ['--cert', files.clientCert, '--key', files.clientKey, '--cacert', files.ca];
    const inspect = await startInspect([agent.url, ...args]);
    const base = inspect.url;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const api = (path: string, body: unknown) =>
      fetch(`${base}api/${path}`, {
        method: 'POST',
        headers: { 'x-a2a-inspector': '1', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const connected = await api('connect', { url: agent.url });
    expect(connected.needs).toEqual([
      expect.objectContaining({ scheme: 'mtls', kind: 'mtls', configured: true }),
    ]);
    const sent = await api('call', {
      operation: 'sendMessage',
      params: { message: userMessage('via inspect') },
    });
    expect(JSON.stringify(sent.result)).toMatch(/via inspect from .*alice/);
    expect(await inspect.stop()).toBe(0);
  });

  it('a2a inspect refuses --cert without --key, and a file it cannot read', async () => {
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: { write: (s: string) => ((err += s), true) },
      env: {},
    };
    expect(await run(['inspect', '--port', '0', '--cert', files.clientCert], io)).toBe(2);
    expect(err).toContain('--cert and --key go together');
    err = '';
    expect(await run(['inspect', '--port', '0', '--cacert', '/nonexistent/ca.pem'], io)).toBe(2);
    expect(err).toContain('cannot read the CA file /nonexistent/ca.pem');
  });
});
