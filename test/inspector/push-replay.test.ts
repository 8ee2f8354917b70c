/**
 * The inspector's webhook receiver on replays and keys (spec §13.2; src/inspector/push-hooks.ts):
 * a delivery signed by a real PushSigner, whose JWKS a loopback server publishes, is accepted as
 * verified and fresh with its key id; the very same delivery sent again is refused as replayed
 * (its `jti` was seen); one signed by a key the JWKS does not hold is refused as unverified.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushHooks } from '../../src/inspector/push-hooks.js';
import { PUSH_SIGNATURE_HEADER, PUSH_TOKEN_HEADER, PushSigner } from '../../src/push/signing.js';

describe('the inspector webhook: signature, key id, replay status', () => {
  let signer: PushSigner;
  let jwks: Server;
  let jwksUrl = '';

  beforeAll(async () => {
    signer = await PushSigner.generate({ issuer: 'http://127.0.0.1' });
    const published = JSON.stringify(await signer.jwks());
    jwks = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(published);
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())));

  const delivery = async (by: PushSigner, taskId: string, token: string, audience: string) => {
    const body = new TextEncoder().encode(
      JSON.stringify({
        statusUpdate: { taskId, contextId: 'ctx', status: { state: 'TASK_STATE_WORKING' } },
      }),
    );
    const signature = await by.sign({ body, taskId, audience });
    const headers = new Headers({
      [PUSH_SIGNATURE_HEADER]: signature,
      [PUSH_TOKEN_HEADER]: token,
    });
    return { headers, body };
  };

  it('verified and fresh, then the same delivery again is refused as replayed', async () => {
    const hooks = new PushHooks();
    const hook = hooks.add('task-1', 'http://127.0.0.1:9', '/hooks', jwksUrl);
    const { headers, body } = await delivery(signer, 'task-1', hook.token, hook.url);
    expect(await hooks.receive(hook.id, headers, body)).toBe(204);
    const again = await hooks.receive(hook.id, headers, body);
    expect(again).toBeGreaterThanOrEqual(400);
    const [first, second] = hooks.since(0);
    expect(first).toMatchObject({
      accepted: true,
      signature: 'verified',
      replay: 'fresh',
      kid: signer.current.kid,
      taskId: 'task-1',
    });
    expect(second).toMatchObject({ accepted: false, signature: 'REPLAYED', replay: 'replayed' });
  });

  it('a key the agent does not publish is refused, its key id shown', async () => {
    const hooks = new PushHooks();
    const hook = hooks.add('task-2', 'http://127.0.0.1:9', '/hooks', jwksUrl);
    const stranger = await PushSigner.generate({ issuer: 'http://127.0.0.1' });
    const { headers, body } = await delivery(stranger, 'task-2', hook.token, hook.url);
    expect(await hooks.receive(hook.id, headers, body)).toBeGreaterThanOrEqual(400);
    const [refused] = hooks.since(0);
    expect(refused).toMatchObject({ accepted: false, kid: stranger.current.kid });
    expect(refused?.signature).not.toBe('verified');
  });
});
