/**
 * The did:wba `e1_` path profile (ANP did:wba v1.1 §2.2.1-§2.2.2, §2.5.2, §2.5.5), end to end
 * over real HTTPS on loopback (a test CA made with the openssl CLI): an `e1_` DID's document
 * (Ed25519 `Multikey`, `eddsa-jcs-2022` proof) is fetched, its proof and fingerprint checked, and
 * the DID becomes the caller's principal. A document without a valid proof by the bound key is
 * refused, each failure with its own reason; our agent and the CLI make and publish such DIDs.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { userMessage } from '../../src/core/parts.js';
import {
  DidResolver,
  createEddsaJcs2022Proof,
  didDocumentOf,
  didDocumentPath,
  didIdentity,
  didPushVerifier,
  didSignedFetch,
  didWbaSecurityScheme,
  didWbaVerifier,
  e1DidOf,
  ed25519Multikey,
  ed25519Thumbprint,
  generateDidKey,
  signRequest,
  type DidAuthReason,
  type DidDocument,
  type DidIdentity,
  type VerifiedDid,
} from '../../src/did/index.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import {
  receivePushNotifications,
  type PushReceiverServer,
} from '../../src/push/receive-server.js';
import type { VerifiedPush } from '../../src/push/receiver.js';
import { createAgent } from '../../src/server/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { cli, closedPort } from '../e2e/harness.js';
import { hasOpenssl, makePki, type TestPki } from './fixtures/certs.js';
import { startDidHost, type DidHost } from './fixtures/did-host.js';
import { securedAgent } from './fixtures/server.js';

const card: AgentCardConfig = {
  name: 'e1 agent',
  description: 'Callers sign with did:wba e1_ DIDs',
  version: '1.0.0',
  capabilities: { extendedAgentCard: true },
  securitySchemes: { did: didWbaSecurityScheme() },
  securityRequirements: [{ schemes: { did: { list: [] } } }],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

type Doc = Record<string, unknown> & DidDocument;

describe.skipIf(!hasOpenssl())('did:wba e1_ DIDs over real HTTPS (openssl test CA)', () => {
  let pki: TestPki;
  let host: DidHost;
  let agent: ServeResult;
  const pathDid = (path: string, port = host.port) => `did:wba:localhost%3A${port}:${path}`;
  const publish = (did: string, body: unknown) =>
    host.docs.set(didDocumentPath(did), { status: 200, body: JSON.stringify(body) });

  /** A new e1_ identity under `path`, and its signed document (published unless told). */
  const e1Person = (path: string, options: { publish?: boolean } = {}) => {
    const key = generateDidKey('Ed25519');
    const identity = didIdentity({ did: e1DidOf(pathDid(path), key), privateJwk: key });
    const document = didDocumentOf(identity) as Doc;
    if (options.publish !== false) publish(identity.did, document);
    return { identity, document };
  };

  beforeAll(async () => {
    pki = makePki();
    host = await startDidHost(pki);
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

  /** A SendMessage signed by `identity`, posted raw: the status and the error message. */
  const signedCall = async (identity: DidIdentity, text: string) => {
    const url = `${agent.url}/a2a/jsonrpc`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: userMessage(text) },
    });
    const headers = { 'content-type': 'application/json', 'a2a-version': '1.0' };
    const signature = await signRequest(identity, { method: 'POST', url, headers, body });
    const res = await fetch(url, { method: 'POST', headers: { ...headers, ...signature }, body });
    const json = (await res.json()) as { error?: { message?: string } };
    return { status: res.status, message: json.error?.message ?? '' };
  };

  it('writes the e1_ DID and document of ANP §2.2.2 and §2.5: Multikey key, eddsa-jcs-2022 proof', () => {
    const { identity, document } = e1Person('user:alice', { publish: false });
    const fingerprint = ed25519Thumbprint(identity.publicJwk);
    expect(identity.did).toBe(`${pathDid('user:alice')}:e1_${fingerprint}`);
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(didDocumentPath(identity.did)).toBe(`/user/alice/e1_${fingerprint}/did.json`);
    expect(document['@context']).toEqual([
      'https://www.w3.org/ns/did/v1',
      'https://w3id.org/security/data-integrity/v2',
      'https://w3id.org/security/multikey/v1',
    ]);
    expect(document.verificationMethod).toEqual([
      {
        id: `${identity.did}#key-1`,
        type: 'Multikey',
        controller: identity.did,
        publicKeyMultibase: ed25519Multikey(identity.publicJwk),
      },
    ]);
    expect(document.verificationMethod?.[0]?.publicKeyMultibase).toMatch(/^z6Mk/);
    expect(document.authentication).toEqual([`${identity.did}#key-1`]);
    expect(document.assertionMethod).toEqual([`${identity.did}#key-1`]);
    expect(document.proof).toMatchObject({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-jcs-2022',
      proofPurpose: 'assertionMethod',
      verificationMethod: `${identity.did}#key-1`,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      proofValue: expect.stringMatching(/^z[1-9A-HJ-NP-Za-km-z]+$/),
    });
  });

  it('accepts a call signed by an e1_ DID, and the DID is the principal', async () => {
    const { identity } = e1Person('user:alice');
    const client = await A2AClient.connect(agent.url, { fetch: didSignedFetch(identity) });
    const result = await client.sendMessage({ message: userMessage('hi') });
    expect('task' in result && result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await client.getExtendedAgentCard()).name).toBe(`e1 agent for ${identity.did}`);
  });

  it("isolates owners by e1_ DID: another DID cannot see the caller's task", async () => {
    const alice = e1Person('user:alice2').identity;
    const bob = e1Person('user:bob').identity;
    const asAlice = await A2AClient.connect(agent.url, { fetch: didSignedFetch(alice) });
    const asBob = await A2AClient.connect(agent.url, { fetch: didSignedFetch(bob) });
    const sent = await asAlice.sendMessage({ message: userMessage('wait') });
    if (!('task' in sent)) throw new Error('expected a task');
    await expect(asBob.getTask({ id: sent.task.id })).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    expect((await asAlice.getTask({ id: sent.task.id })).id).toBe(sent.task.id);
  });

  /** Re-signs `document` (any proof dropped) with the proof options given, by `signer`. */
  const resign = (
    document: Doc,
    signer: DidIdentity,
    keyId: string,
    proofPurpose = 'assertionMethod',
  ): Doc => {
    const { proof: _old, ...unsigned } = document;
    const proof = createEddsaJcs2022Proof(
      unsigned,
      { verificationMethod: keyId, proofPurpose },
      signer.privateKey,
    );
    return { ...unsigned, proof };
  };

  /** A second Ed25519 key listed in `document` as `#key-2` (authentication and assertion). */
  const withSecondKey = (document: Doc, did: string) => {
    const other = didIdentity({ did: pathDid('user:x'), privateJwk: generateDidKey('Ed25519') });
    const id = `${did}#key-2`;
    const method = {
      id,
      type: 'Multikey',
      controller: did,
      publicKeyMultibase: ed25519Multikey(other.publicJwk),
    };
    return {
      other,
      id,
      document: {
        ...document,
        verificationMethod: [...(document.verificationMethod ?? []), method],
        authentication: [...(document.authentication ?? []), id],
        assertionMethod: [...(document.assertionMethod ?? []), id],
      } as Doc,
    };
  };

  const refusals: [
    string,
    (person: ReturnType<typeof e1Person>) => unknown,
    DidAuthReason,
    string,
  ][] = [
    [
      'a document changed after it was signed (proof invalid)',
      ({ document }) => ({
        ...document,
        service: [{ id: '#evil', type: 'A2AAgentCard', serviceEndpoint: 'https://evil.example' }],
      }),
      'BAD_PROOF',
      'does not verify',
    ],
    [
      'a proof by another key of the document (thumbprint mismatch)',
      ({ identity, document }) => {
        const { other, id, document: twoKeys } = withSecondKey(document, identity.did);
        return resign(twoKeys, other, id);
      },
      'FINGERPRINT_MISMATCH',
      'key-2.*e1_',
    ],
    [
      'a document whose key the host swapped for its own, and signed',
      ({ identity, document }) => {
        const host = didIdentity({ did: pathDid('user:y'), privateJwk: generateDidKey() });
        const swapped = {
          ...document,
          verificationMethod: [
            {
              id: `${identity.did}#key-1`,
              type: 'Multikey',
              controller: identity.did,
              publicKeyMultibase: ed25519Multikey(host.publicJwk),
            },
          ],
        } as Doc;
        return resign(swapped, host, `${identity.did}#key-1`);
      },
      'FINGERPRINT_MISMATCH',
      'thumbprint',
    ],
    [
      'a document without proof',
      ({ document }) => {
        const { proof: _dropped, ...unsigned } = document;
        return unsigned;
      },
      'MISSING_PROOF',
      '',
    ],
    [
      'a proof with another cryptosuite (eddsa-rdfc-2022)',
      ({ document }) => ({
        ...document,
        proof: { ...(document.proof as object), cryptosuite: 'eddsa-rdfc-2022' },
      }),
      'UNSUPPORTED_CRYPTOSUITE',
      'eddsa-rdfc-2022',
    ],
    [
      'a proof for another purpose (authentication), validly signed',
      ({ identity, document }) =>
        resign(document, identity, `${identity.did}#key-1`, 'authentication'),
      'WRONG_PROOF_PURPOSE',
      '"authentication"',
    ],
    [
      'a proof by a key not listed under assertionMethod',
      ({ identity, document }) =>
        resign({ ...document, assertionMethod: [] }, identity, `${identity.did}#key-1`),
      'WRONG_PROOF_PURPOSE',
      'not listed under assertionMethod',
    ],
    [
      'a proofValue that is not base58btc multibase',
      ({ document }) => ({
        ...document,
        proof: { ...(document.proof as object), proofValue: 'uAAAA' },
      }),
      'MALFORMED_PROOF',
      'proofValue',
    ],
  ];

  it.each(refusals.map(([name, make, code, detail], i) => [name, code, make, detail, i] as const))(
    'refuses %s, with 401 and its own reason %s',
    async (_name, code, make, detail, i) => {
      const person = e1Person(`user:refused${i}`, { publish: false });
      publish(person.identity.did, make(person));
      const { status, message } = await signedCall(person.identity, 'refused');
      expect(status).toBe(401);
      expect(message).toMatch(new RegExp(`${code}: .*${detail}`));
      // The same document resolved directly: the resolver refuses it too, nothing is cached.
      const resolver = new DidResolver({ ca: pki.ca, allowLoopback: true });
      await expect(resolver.resolve(person.identity.did)).rejects.toMatchObject({
        name: 'DidAuthError',
        reason: code,
      });
    },
  );

  it('refuses to make an identity whose key is not the one its e1_ DID binds', () => {
    const { identity } = e1Person('user:carol', { publish: false });
    expect(() => didIdentity({ did: identity.did, privateJwk: generateDidKey() })).toThrow(
      /not the one .* binds/,
    );
    expect(() =>
      didIdentity({
        did: e1DidOf(pathDid('user:c'), generateDidKey()),
        privateJwk: generateDidKey('P-256'),
      }),
    ).toThrow(/Ed25519/);
  });

  describe('our agent: serve({ did: { profile: "e1" } })', () => {
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

    it('publishes its e1_ document with a valid proof and signs push deliveries with it', async () => {
      const port = await closedPort();
      const key = generateDidKey();
      served = await serve(reporter, {
        port,
        host: '127.0.0.1',
        logger: null,
        tls: { cert: pki.serverCert, key: pki.serverKey },
        publicUrl: `https://localhost:${port}`,
        did: { key, profile: 'e1', did: `did:wba:localhost%3A${port}:agents:reporter` },
        push: { allowHosts: ['127.0.0.1'], logger: null },
      });
      const did = served.did ?? '';
      expect(did).toBe(`did:wba:localhost%3A${port}:agents:reporter:e1_${ed25519Thumbprint(key)}`);
      const resolver = new DidResolver({ ca: pki.ca, allowLoopback: true });
      const document = await resolver.resolve(did); // checks the proof and the fingerprint
      expect(document.proof).toMatchObject({ cryptosuite: 'eddsa-jcs-2022' });

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
      expect(signers.map((s) => s.did)).toEqual([did, did]);
    });

    it('refuses profile e1 without a path DID (an e1_ DID is a path DID)', async () => {
      await expect(
        serve(reporter, {
          port: 0,
          host: '127.0.0.1',
          logger: null,
          did: { key: generateDidKey(), profile: 'e1', did: 'did:wba:agent.example.com' },
        }),
      ).rejects.toThrow(/e1_ DID is a path DID/);
    });
  });

  it('a2a did init --profile e1 makes the key and signed document; a2a send --did-key signs with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-did-e1-'));
    const key = join(dir, 'gina.jwk');
    const doc = join(dir, 'did.json');
    const base = pathDid('user:gina');
    const args = ['did', 'init', '--did', base, '--profile', 'e1', '--out', key, '--document', doc];
    const init = await cli(args);
    expect(init.code).toBe(0);
    const document = JSON.parse(await readFile(doc, 'utf8')) as Doc;
    expect(document.id).toMatch(new RegExp(`^${base}:e1_[A-Za-z0-9_-]{43}$`));
    expect(init.stderr).toContain(`https://localhost:${host.port}${didDocumentPath(document.id)}`);
    expect(document.proof).toMatchObject({ cryptosuite: 'eddsa-jcs-2022' });
    const shown = JSON.parse((await cli(['did', 'show', '--did-key', key])).stdout) as Doc;
    expect({ ...shown, proof: undefined }).toEqual({ ...document, proof: undefined });
    publish(document.id, shown);
    const sent = await cli(['send', agent.url, 'hello', '--did-key', key, '-o', 'json']);
    expect(sent.stderr).toBe('');
    expect(JSON.parse(sent.stdout)).toMatchObject({
      task: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
    const p256 = await cli([...args, '--key-type', 'P-256']);
    expect(p256.code).not.toBe(0);
    expect(p256.stderr).toMatch(/Ed25519/);
  });
});
