import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamResponse } from '../core/schemas/index.js';
import { generateSigningKey } from '../security/signing-keys.js';
import type { StoredPushConfig } from '../stores/types.js';
import { deliveryHeaders } from './delivery.js';
import { PUSH_JWKS_PATH, createPushJwksHandler } from './jwks.js';
import { PushRejected, createPushReceiver, type PushReceiverOptions } from './receiver.js';
import { PUSH_JWT_TYPE, PushSigner, sha256Base64url } from './signing.js';

const ISSUER = 'https://agent.example.com';
const HOOK = 'https://client.example.com/hook';
const config: StoredPushConfig = { taskId: 't1', id: 'c1', url: HOOK, token: 'tok-1' };

const working = (taskId = 't1'): StreamResponse => ({
  statusUpdate: {
    taskId,
    contextId: 'ctx',
    status: { state: 'TASK_STATE_WORKING', timestamp: '2025-01-01T00:00:00.000Z' },
  },
});

async function delivery(signer: PushSigner, event: StreamResponse, taskId = 't1') {
  const body = JSON.stringify(event);
  const signature = await signer.sign({
    body: new TextEncoder().encode(body),
    taskId,
    audience: HOOK,
  });
  return { headers: deliveryHeaders(config, 'd1', signature), body };
}

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PushRejected)) throw new Error(`not rejected: ${String(error)}`);
  return error.reason;
}

async function setup(extra: Partial<PushReceiverOptions> = {}) {
  const signer = await PushSigner.generate({ issuer: ISSUER });
  const receiver = createPushReceiver({
    jwks: await signer.jwks(),
    issuer: ISSUER,
    audience: HOOK,
    token: 'tok-1',
    ...extra,
  });
  return { signer, receiver };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('push receiver [151,153]', () => {
  it('accepts a signed delivery and returns its event, task id and claims', async () => {
    const { signer, receiver } = await setup();
    const request = await delivery(signer, working());
    const verified = await receiver.verify(request);
    expect(verified.event).toEqual(working());
    expect(verified.taskId).toBe('t1');
    expect(verified.claims).toMatchObject({
      iss: ISSUER,
      aud: HOOK,
      taskId: 't1',
      sha256: await sha256Base64url(new TextEncoder().encode(request.body)),
    });
    const claims = verified.claims ?? { exp: 0, iat: 0 };
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('reads headers from a Headers object and from node-style records', async () => {
    const { signer, receiver } = await setup();
    const { headers, body } = await delivery(signer, working());
    await expect(receiver.verify({ headers: new Headers(headers), body })).resolves.toBeDefined();
    const { headers: again, body: body2 } = await delivery(signer, working());
    const upper = Object.fromEntries(Object.entries(again).map(([k, v]) => [k.toUpperCase(), [v]]));
    await expect(receiver.verify({ headers: upper, body: body2 })).resolves.toBeDefined();
  });

  it('rejects a forged signature: another key under the same kid', async () => {
    const { signer, receiver } = await setup();
    const forger = new PushSigner({
      keys: [await generateSigningKey('ES256', { kid: signer.current.kid })],
      issuer: ISSUER,
    });
    expect(await reason(receiver.verify(await delivery(forger, working())))).toBe('BAD_SIGNATURE');
  });

  it('rejects a signature by a key the agent does not publish', async () => {
    const { receiver } = await setup();
    const stranger = await PushSigner.generate({ issuer: ISSUER });
    expect(await reason(receiver.verify(await delivery(stranger, working())))).toBe('UNKNOWN_KEY');
  });

  it('rejects an unsigned JWT, a JWT of another type and a wrong audience', async () => {
    const { signer, receiver } = await setup();
    const { headers, body } = await delivery(signer, working());
    const sha256 = await sha256Base64url(new TextEncoder().encode(body));
    const claims = { taskId: 't1', sha256 };
    const none = new UnsecuredJWT(claims).setIssuedAt().setExpirationTime('1m').setJti('x');
    const key = signer.current;
    const plainJwt = await new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1m')
      .setJti('y')
      .setIssuer(ISSUER)
      .setAudience(HOOK)
      .sign(key.key);
    const elsewhere = await new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: PUSH_JWT_TYPE })
      .setIssuedAt()
      .setExpirationTime('1m')
      .setJti('z')
      .setIssuer(ISSUER)
      .setAudience('https://someone-else.example.com/hook')
      .sign(key.key);
    for (const jwt of [none.encode(), plainJwt, elsewhere]) {
      const forged = { ...headers, 'x-a2a-notification-signature': jwt };
      expect(await reason(receiver.verify({ headers: forged, body }))).toBe('BAD_SIGNATURE');
    }
  });

  it('rejects a modified body', async () => {
    const { signer, receiver } = await setup();
    const { headers, body } = await delivery(signer, working());
    const modified = body.replace('TASK_STATE_WORKING', 'TASK_STATE_COMPLETED');
    expect(await reason(receiver.verify({ headers, body: modified }))).toBe('BODY_MISMATCH');
  });

  it('rejects a replayed notification', async () => {
    const { signer, receiver } = await setup();
    const request = await delivery(signer, working());
    await receiver.verify(request);
    expect(await reason(receiver.verify(request))).toBe('REPLAYED');
  });

  it('rejects an expired notification and one signed too long ago', async () => {
    const { signer, receiver } = await setup();
    vi.useFakeTimers({ now: Date.now() - 10 * 60_000, toFake: ['Date'] });
    const expired = await delivery(signer, working());
    const longLived = new PushSigner({ keys: [signer.current], issuer: ISSUER, ttlSeconds: 3600 });
    const stale = await delivery(longLived, working());
    vi.useRealTimers();
    expect(await reason(receiver.verify(expired))).toBe('EXPIRED');
    expect(await reason(receiver.verify(stale))).toBe('EXPIRED');
  });

  it('requires the signature header when it checks signatures', async () => {
    const { signer, receiver } = await setup();
    const { headers, body } = await delivery(signer, working());
    const { ['x-a2a-notification-signature']: _dropped, ...unsigned } = headers;
    expect(await reason(receiver.verify({ headers: unsigned, body }))).toBe('MISSING_SIGNATURE');
  });

  it('[149,154] checks the notification token, fixed or per task', async () => {
    const { signer, receiver } = await setup();
    const { headers, body } = await delivery(signer, working());
    const wrong = { ...headers, 'x-a2a-notification-token': 'tok-2' };
    expect(await reason(receiver.verify({ headers: wrong, body }))).toBe('BAD_TOKEN');
    const { ['x-a2a-notification-token']: _t, ...none } = headers;
    expect(await reason(receiver.verify({ headers: none, body }))).toBe('BAD_TOKEN');
    const perTask = createPushReceiver({
      token: (taskId) => (taskId === 't1' ? 'tok-1' : undefined),
    });
    await expect(perTask.verify({ headers, body })).resolves.toMatchObject({ taskId: 't1' });
    const other = JSON.stringify(working('t2'));
    expect(await reason(perTask.verify({ headers, body: other }))).toBe('BAD_TOKEN');
  });

  it('[152] rejects a body about another task than the signature, or an unexpected task', async () => {
    const { signer, receiver } = await setup({ acceptTask: (id) => id === 't1' });
    const swapped = await delivery(signer, working('t2'), 't1');
    expect(await reason(receiver.verify(swapped))).toBe('TASK_MISMATCH');
    const unexpected = await delivery(signer, working('t3'), 't3');
    expect(await reason(receiver.verify(unexpected))).toBe('UNEXPECTED_TASK');
  });

  it('rejects a signed body that is not a StreamResponse', async () => {
    const { signer, receiver } = await setup();
    const body = JSON.stringify({ statusUpdate: { taskId: 't1' }, message: {} });
    const bytes = new TextEncoder().encode(body);
    const signature = await signer.sign({ body: bytes, taskId: 't1', audience: HOOK });
    const headers = deliveryHeaders(config, 'd1', signature);
    expect(await reason(receiver.verify({ headers, body }))).toBe('BAD_BODY');
  });

  it('needs something to check unless told otherwise', () => {
    expect(() => createPushReceiver({})).toThrow(/needs jwks, token or requestVerifier/);
    expect(() => createPushReceiver({ allowUnauthenticated: true })).not.toThrow();
  });
});

describe('push JWKS and key rotation', () => {
  it('serves the published keys and lets receivers follow a rotation', async () => {
    const signer = await PushSigner.generate({ issuer: ISSUER });
    const handler = createPushJwksHandler(signer);
    const server = createServer((req, res) => {
      void handler({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: new Headers(),
      }).then((reply) => {
        res.writeHead(reply.status, reply.headers);
        res.end(typeof reply.body === 'string' ? reply.body : undefined);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const jwks = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PUSH_JWKS_PATH}`;
    try {
      const res = await fetch(jwks);
      expect(res.headers.get('content-type')).toBe('application/jwk-set+json');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const doc = (await res.json()) as { keys: { kid: string; d?: string }[] };
      expect(doc.keys.map((k) => k.kid)).toEqual([signer.current.kid]);
      expect(doc.keys[0]?.d).toBeUndefined();

      const options = { jwks, allowInsecure: true, cooldownSeconds: 0, token: 'tok-1' };
      const receiver = createPushReceiver(options);
      const old = await delivery(signer, working());
      const oldKid = signer.current.kid;
      signer.rotate(await generateSigningKey());
      expect(signer.kids).toEqual([signer.current.kid, oldKid]);
      // Signed by the new key: the receiver does not know its kid yet and fetches the JWKS again.
      await expect(receiver.verify(await delivery(signer, working()))).resolves.toBeDefined();
      // Signed a moment ago by the previous key: still published, still valid.
      await expect(receiver.verify(old)).resolves.toBeDefined();
      signer.retire(oldKid);
      expect(() => signer.retire(signer.current.kid)).toThrow(/rotate before retiring/);
      const fresh = createPushReceiver(options);
      // Retired: no longer published, so a receiver that fetches the JWKS now refuses it.
      expect(await reason(fresh.verify(old))).toBe('UNKNOWN_KEY');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers 503 when the JWKS cannot be fetched, so the agent retries', async () => {
    const signer = await PushSigner.generate();
    const receiver = createPushReceiver({ jwks: 'http://127.0.0.1:9/jwks', allowInsecure: true });
    const error = await receiver.verify(await delivery(signer, working())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushRejected);
    expect((error as PushRejected).reason).toBe('KEYS_UNAVAILABLE');
    expect((error as PushRejected).status).toBe(503);
  });

  it('refuses an http JWKS URL unless allowed', async () => {
    const signer = await PushSigner.generate();
    const receiver = createPushReceiver({ jwks: 'http://127.0.0.1:9/jwks' });
    expect(await reason(receiver.verify(await delivery(signer, working())))).toBe(
      'KEYS_UNAVAILABLE',
    );
  });
});
