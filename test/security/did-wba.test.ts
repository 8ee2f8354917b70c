/**
 * did:wba identity (issue 20, points 3-4): requests signed with RFC 9421 HTTP Message Signatures
 * and an RFC 9530 Content-Digest by a key of a did:wba DID, verified by the server against the
 * DID document fetched over real HTTPS (a test CA made with the openssl CLI) on loopback. Every
 * refusal is closed and named; the DID is the caller's principal, so owners are isolated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { userMessage } from '../../src/core/parts.js';
import {
  DidAuthError,
  DidRequestVerifier,
  DidResolver,
  didDocumentOf,
  didIdentity,
  didSignedFetch,
  didWbaSecurityScheme,
  didWbaVerifier,
  generateDidKey,
  signRequest,
  type DidIdentity,
} from '../../src/did/index.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { PushRejected, createPushReceiver } from '../../src/push/receiver.js';
import {
  receivePushNotifications,
  type PushReceiverServer,
} from '../../src/push/receive-server.js';
import type { VerifiedPush } from '../../src/push/receiver.js';
import { createAgent } from '../../src/server/index.js';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, closedPort } from '../e2e/harness.js';
import { didPushVerifier, type VerifiedDid } from '../../src/did/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { hasOpenssl, makePki, type TestPki } from './fixtures/certs.js';
import { startDidHost, type DidHost } from './fixtures/did-host.js';
import { securedAgent } from './fixtures/server.js';

const card: AgentCardConfig = {
  name: 'DID agent',
  description: 'Callers sign with did:wba',
  version: '1.0.0',
  capabilities: { streaming: true, extendedAgentCard: true },
  securitySchemes: { did: didWbaSecurityScheme() },
  securityRequirements: [{ schemes: { did: { list: [] } } }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

const BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;

describe.skipIf(!hasOpenssl())('did:wba signed requests over real HTTPS (openssl test CA)', () => {
  let pki: TestPki;
  let host: DidHost;
  let agent: ServeResult;
  let alice: DidIdentity;
  let bob: DidIdentity;
  const didOf = (path: string, port = host.port) => `did:wba:localhost%3A${port}:${path}`;

  /** Publishes `identity`'s document (or any body) at the DID's path. */
  const publish = (path: string, body: unknown, status = 200) =>
    host.docs.set(`/${path.replaceAll(':', '/')}/did.json`, { status, body: JSON.stringify(body) });

  const person = (path: string, type: 'Ed25519' | 'P-256') => {
    const identity = didIdentity({ did: didOf(path), privateJwk: generateDidKey(type) });
    publish(path, didDocumentOf(identity));
    return identity;
  };

  beforeAll(async () => {
    pki = makePki();
    host = await startDidHost(pki);
    alice = person('user:alice', 'Ed25519');
    bob = person('user:bob', 'P-256');
    agent = await serve(securedAgent(card), {
      port: 0,
      host: '127.0.0.1',
      logger: null,
      auth: {
        schemes: { did: { verifier: didWbaVerifier({ ca: pki.ca, allowLoopback: true }) } },
      },
    });
  });
  afterAll(async () => {
    await agent?.close();
    await host?.close();
  });

  const connect = (identity: DidIdentity, binding: string) =>
    A2AClient.connect(agent.url, { fetch: didSignedFetch(identity), preferredBinding: binding });

  /** A raw JSON-RPC POST to the agent with the given extra headers; the status and the error. */
  type Binding = (typeof BINDINGS)[number];
  /** Where a raw SendMessage goes on each binding, and its body. */
  const ENDPOINT: Record<Binding, { path: string; body: (text: string) => string }> = {
    JSONRPC: {
      path: '/a2a/jsonrpc',
      body: (text) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: userMessage(text) },
        }),
    },
    'HTTP+JSON': {
      path: '/a2a/rest/message:send',
      body: (text) => JSON.stringify({ message: userMessage(text) }),
    },
  };

  /** A raw SendMessage POST with the given extra headers; the status and the error message. */
  const rawCall = async (headers: Record<string, string>, body: string, b: Binding = 'JSONRPC') => {
    const res = await fetch(`${agent.url}${ENDPOINT[b].path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body,
    });
    const json = (await res.json()) as { error?: { message?: string } };
    return { status: res.status, message: json.error?.message ?? '', res };
  };
  const rpc = (text: string, b: Binding = 'JSONRPC') => ENDPOINT[b].body(text);
  const signed = (
    identity: DidIdentity,
    body: string,
    now?: () => number,
    b: Binding = 'JSONRPC',
  ) =>
    signRequest(
      identity,
      {
        method: 'POST',
        url: `${agent.url}${ENDPOINT[b].path}`,
        headers: { 'content-type': 'application/json' },
        body,
      },
      now === undefined ? {} : { now },
    );

  describe.each(BINDINGS)('over %s', (binding) => {
    it('accepts a signed call and makes the DID the principal', async () => {
      const client = await connect(alice, binding);
      const result = await client.sendMessage({ message: userMessage('hi') });
      expect('task' in result && result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const extended = await client.getExtendedAgentCard();
      expect(extended.name).toBe(`DID agent for ${alice.did}`);
    });

    it("isolates owners by DID: bob cannot see alice's task", async () => {
      const asAlice = await connect(alice, binding);
      const asBob = await connect(bob, binding);
      const sent = await asAlice.sendMessage({ message: userMessage('wait') });
      if (!('task' in sent)) throw new Error('expected a task');
      const id = sent.task.id;
      expect((await asAlice.getTask({ id })).id).toBe(id);
      await expect(asBob.getTask({ id })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
      const bobs = await asBob.listTasks({});
      expect(bobs.tasks.map((t) => t.id)).not.toContain(id);
    });
  });

  it('refuses an unsigned call with 401 and a DIDWba challenge', async () => {
    const { status, res, message } = await rawCall({}, rpc('no signature'));
    expect(status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^DIDWba/);
    expect(message).toMatch(/DIDWba/);
  });

  const refusals: [
    string,
    (b: Binding) => Promise<{ headers: Record<string, string>; body: string }>,
    RegExp,
  ][] = [
    [
      'a forged signature (another key under alice’s keyid)',
      async (b: Binding) => {
        const forger = didIdentity({ did: alice.did, privateJwk: generateDidKey('Ed25519') });
        const body = rpc('forged', b);
        return { headers: await signed(forger, body, undefined, b), body };
      },
      /BAD_SIGNATURE/,
    ],
    [
      'a key the document does not list',
      async (b: Binding) => {
        const other = didIdentity({
          did: alice.did,
          privateJwk: generateDidKey('Ed25519'),
          keyFragment: 'key-2',
        });
        const body = rpc('wrong key', b);
        return { headers: await signed(other, body, undefined, b), body };
      },
      /KEY_NOT_FOUND.*key-2/,
    ],
    [
      'a stale signature (created 10 minutes ago)',
      async (b: Binding) => {
        const body = rpc('stale', b);
        return { headers: await signed(alice, body, () => Date.now() - 600_000, b), body };
      },
      /STALE_SIGNATURE/,
    ],
    [
      'a body changed after signing',
      async (b: Binding) => ({
        headers: await signed(alice, rpc('original', b), undefined, b),
        body: rpc('changed', b),
      }),
      /DIGEST_MISMATCH/,
    ],
    [
      'an invalid DID document (id of another DID)',
      async (b: Binding) => {
        const carol = didIdentity({
          did: didOf('user:carol'),
          privateJwk: generateDidKey('Ed25519'),
        });
        publish('user:carol', { ...didDocumentOf(carol), id: alice.did });
        const body = rpc('carol', b);
        return { headers: await signed(carol, body, undefined, b), body };
      },
      /INVALID_DOCUMENT/,
    ],
    [
      'a DID with no document (404)',
      async (b: Binding) => {
        const dave = didIdentity({ did: didOf('user:dave'), privateJwk: generateDidKey() });
        const body = rpc('dave', b);
        return { headers: await signed(dave, body, undefined, b), body };
      },
      /DID_NOT_FOUND.*404/,
    ],
  ];

  const cases = BINDINGS.flatMap((b) =>
    refusals.map(([name, make, reason]) => [b, name, make, reason] as const),
  );
  it.each(cases)(
    'over %s refuses %s with 401 and its own reason',
    async (b, _name, make, reason) => {
      const { headers, body } = await make(b);
      const { status, message } = await rawCall(headers, body, b);
      expect(status).toBe(401);
      expect(message).toMatch(reason);
    },
  );

  it.each(BINDINGS)('over %s refuses a replayed request (same signature and nonce)', async (b) => {
    const body = rpc('once', b);
    const headers = await signed(alice, body, undefined, b);
    expect((await rawCall(headers, body, b)).status).toBe(200);
    const again = await rawCall(headers, body, b);
    expect(again.status).toBe(401);
    expect(again.message).toMatch(/REPLAYED/);
  });

  it('refuses (503, never allows) a DID whose host is unreachable', async () => {
    const closed = await startDidHost(pki);
    const port = closed.port;
    await closed.close();
    const eve = didIdentity({ did: didOf('user:eve', port), privateJwk: generateDidKey() });
    const body = rpc('eve');
    const { status, message, res } = await rawCall(await signed(eve, body), body);
    expect(status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(message).toMatch(/DID_UNREACHABLE/);
  });

  it('refuses loopback DID hosts unless allowLoopback is set (SSRF guard)', async () => {
    const verifier = new DidRequestVerifier({ ca: pki.ca });
    const body = rpc('guarded');
    const headers = await signed(alice, body);
    const request = {
      method: 'POST',
      url: `${agent.url}/a2a/jsonrpc`,
      headers: new Headers({ 'content-type': 'application/json', ...headers }),
      body,
    };
    await expect(verifier.verify(request)).rejects.toMatchObject({ reason: 'DID_REFUSED' });
  });

  it('refuses a DID host whose certificate is not from a trusted CA', async () => {
    const resolver = new DidResolver({ allowLoopback: true }); // system CAs only
    const error = await resolver.resolve(alice.did).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DidAuthError);
    expect((error as DidAuthError).message).toMatch(/certificate/i);
  });

  it('caches documents for the TTL, then fetches again', async () => {
    let now = Date.now();
    const resolver = new DidResolver({
      ca: pki.ca,
      allowLoopback: true,
      cacheTtlMs: 60_000,
      now: () => now,
    });
    const before = host.hits;
    await resolver.resolve(alice.did);
    await resolver.resolve(alice.did);
    expect(host.hits - before).toBe(1);
    now += 61_000;
    await resolver.resolve(alice.did);
    expect(host.hits - before).toBe(2);
    expect(resolver.fetches).toBe(2);
  });

  it('checks @target-uri against the public origin when a proxy is in front (origin)', async () => {
    const body = rpc('proxied');
    const publicUrl = 'https://agent.example.com/a2a/jsonrpc';
    const headers = await signRequest(alice, {
      method: 'POST',
      url: publicUrl,
      headers: { 'content-type': 'application/json' },
      body,
    });
    const request = (origin?: string) =>
      didWbaVerifier({ ca: pki.ca, allowLoopback: true, origin }).check({
        binding: 'JSONRPC',
        headers: new Headers({ 'content-type': 'application/json', ...headers }),
        query: new URLSearchParams(),
        message: { method: 'POST', url: 'http://127.0.0.1:8080/a2a/jsonrpc', body },
      });
    expect(await request()).toMatchObject({ status: 'invalid', reason: /BAD_SIGNATURE/ });
    expect(await request('https://agent.example.com')).toMatchObject({
      status: 'ok',
      principal: { id: alice.did },
    });
  });

  it('does not carry did:wba signatures on gRPC: it says to use an HTTP binding', async () => {
    const check = await didWbaVerifier({ ca: pki.ca, allowLoopback: true }).check({
      binding: 'GRPC',
      headers: new Headers({ 'signature-input': 'sig1=()', signature: 'sig1=::' }),
      query: new URLSearchParams(),
    });
    expect(check).toMatchObject({
      status: 'invalid',
      reason: expect.stringMatching(/JSON-RPC or HTTP\+JSON/),
    });
  });

  describe('our agent: its DID document and signed push deliveries', () => {
    const reporter = createAgent({
      card: { name: 'Reporter', description: 'Reports', version: '1.0.0', skills: [] },
      async *execute({ task }) {
        yield task.working();
        yield task.completed('done');
      },
    });
    let served: ServeResult | undefined;
    let receiver: PushReceiverServer | undefined;
    afterAll(async () => {
      await served?.close();
      await receiver?.close();
    });

    it('serve({ did }) publishes the document over HTTPS and signs each push delivery; the receiver verifies them', async () => {
      const port = await closedPort();
      served = await serve(reporter, {
        port,
        host: '127.0.0.1',
        logger: null,
        tls: { cert: pki.serverCert, key: pki.serverKey },
        publicUrl: `https://localhost:${port}`,
        did: { key: generateDidKey() },
        push: { allowHosts: ['127.0.0.1'], logger: null },
      });
      expect(served.did).toBe(`did:wba:localhost%3A${port}`);
      const resolver = new DidResolver({ ca: pki.ca, allowLoopback: true });
      const document = await resolver.resolve(served.did ?? '');
      expect(document.authentication).toEqual([`${served.did}#key-1`]);

      const received: VerifiedPush[] = [];
      const signers: VerifiedDid[] = [];
      receiver = await receivePushNotifications({
        requestVerifier: didPushVerifier({
          resolver,
          onVerified: (signer) => void signers.push(signer),
        }),
        onEvent: (push) => void received.push(push),
      });
      await served.server.sendMessage(
        {
          message: userMessage('go'),
          configuration: { taskPushNotificationConfig: { url: `${receiver.url}/hook` } },
        },
        {},
      );
      await expect.poll(() => received.length).toBe(2);
      expect(signers.map((s) => s.did)).toEqual([served.did, served.did]);
    });

    it('the receiver refuses a delivery whose body was changed, or that is not signed', async () => {
      const resolver = new DidResolver({ ca: pki.ca, allowLoopback: true });
      const verify = createPushReceiver({ requestVerifier: didPushVerifier({ resolver }) });
      const url = 'http://127.0.0.1:9/hook';
      const body = JSON.stringify({
        statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
      });
      const headers = await signRequest(alice, { method: 'POST', url, headers: {}, body });
      const changed = body.replace('WORKING', 'COMPLETED');
      const tampered = await verify
        .verify({ url, headers, body: changed })
        .catch((e: unknown) => e);
      expect(tampered).toBeInstanceOf(PushRejected);
      expect((tampered as PushRejected).reason).toBe('BODY_MISMATCH');
      const unsigned = await verify.verify({ url, headers: {}, body }).catch((e: unknown) => e);
      expect((unsigned as PushRejected).reason).toBe('MISSING_SIGNATURE');
      await expect(verify.verify({ url, headers, body })).resolves.toMatchObject({ taskId: 't' });
    });
  });

  describe('the CLI', () => {
    it('a2a did init writes a key and the document; a2a send --did-key signs the call', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'a2a-did-'));
      const did = didOf('user:frank');
      const key = join(dir, 'frank.jwk');
      const doc = join(dir, 'did.json');
      const init = await cli(['did', 'init', '--did', did, '--out', key, '--document', doc]);
      expect(init.code).toBe(0);
      expect(init.stderr).toContain(`https://localhost:${host.port}/user/frank/did.json`);
      const document = JSON.parse(await readFile(doc, 'utf8')) as { id: string };
      expect(document.id).toBe(did);
      const shown = await cli(['did', 'show', '--did-key', key]);
      expect(JSON.parse(shown.stdout)).toEqual(document);
      publish('user:frank', document);
      const sent = await cli(['send', agent.url, 'hello', '--did-key', key, '-o', 'json']);
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
      expect(JSON.parse(sent.stdout)).toMatchObject({
        task: { status: { state: 'TASK_STATE_COMPLETED' } },
      });
      const unsigned = await cli(['send', agent.url, 'hello']);
      expect(unsigned.code).not.toBe(0);
      expect(unsigned.stderr).toMatch(/DIDWba/);
    });

    it('a2a did init explains a DID that is not did:wba', async () => {
      const bad = await cli(['did', 'init', '--did', 'did:web:example.com', '--out', '/dev/null']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/not a did:wba DID/);
    });
  });
});
