import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createPushReceiver } from './receiver.js';
import { PUSH_JWT_TYPE, PushSigner, sha256Base64url } from './signing.js';

describe('PushSigner', () => {
  it('signs a short-lived JWT with kid, typ, jti, taskId, aud, iss and the body hash', async () => {
    const signer = await PushSigner.generate({ issuer: 'https://agent.example.com' });
    const body = new TextEncoder().encode('{"a":1}');
    const jwt = await signer.sign({ body, taskId: 't1', audience: 'https://hook.example.com/' });
    expect(decodeProtectedHeader(jwt)).toEqual({
      alg: 'ES256',
      kid: signer.current.kid,
      typ: PUSH_JWT_TYPE,
    });
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({
      iss: 'https://agent.example.com',
      aud: 'https://hook.example.com/',
      taskId: 't1',
      sha256: await sha256Base64url(body),
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
    const again = decodeJwt(await signer.sign({ body, taskId: 't1' }));
    expect(again.jti).not.toBe(claims.jti);
  });

  it('hashes bytes as base64url SHA-256 (FIPS 180-2 "abc" vector)', async () => {
    expect(await sha256Base64url(new TextEncoder().encode('abc'))).toBe(
      'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0',
    );
  });

  it('saves and restores its keys, newest first, so signatures survive a restart', async () => {
    const signer = await PushSigner.generate();
    const old = signer.current;
    signer.rotate((await PushSigner.generate({ alg: 'EdDSA' })).current);
    const saved = await signer.exportPrivateJwks();
    expect(saved.keys.every((k) => typeof k.d === 'string')).toBe(true);
    const restored = await PushSigner.fromPrivateJwks(saved);
    expect(restored.kids).toEqual(signer.kids);
    expect(restored.kids[1]).toBe(old.kid);
    const receiver = createPushReceiver({ jwks: await signer.jwks() });
    const body =
      '{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}';
    const signature = await restored.sign({ body: new TextEncoder().encode(body), taskId: 't' });
    await expect(
      receiver.verify({ headers: { 'x-a2a-notification-signature': signature }, body }),
    ).resolves.toMatchObject({ taskId: 't' });
  });

  it('refuses to start without a key', () => {
    expect(() => new PushSigner({ keys: [] })).toThrow(/at least one key/);
  });
});
