/**
 * serve({ push }): the notifier is made on the served store (given once), the card's
 * `pushNotifications` follows it (spec §4.3, §3.3.4), and a signer's JWKS is served next to the
 * A2A routes, so a webhook verifies deliveries (spec §13.2) with nothing else mounted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import type { AgentCard } from '../core/schemas/index.js';
import { PUSH_JWKS_PATH } from '../push/jwks.js';
import { createPushNotifier } from '../push/notifier.js';
import { receivePushNotifications, type PushReceiverServer } from '../push/receive-server.js';
import type { VerifiedPush } from '../push/receiver.js';
import { PushSigner } from '../push/signing.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import { serve } from './serve.js';

const agent = createAgent({
  card: { name: 'Reporter', description: 'Reports', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working();
    yield task.completed('done');
  },
});

const cardOf = async (url: string) =>
  (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as AgentCard;

let signer: PushSigner;

beforeAll(async () => {
  signer = await PushSigner.generate();
});

describe('serve({ push })', () => {
  it('[128] makes the notifier on the store, advertises push, serves the JWKS a webhook verifies with', async () => {
    const store = new SqliteTaskStore({ path: ':memory:' });
    const running = await serve(agent, {
      logger: null,
      store,
      // loopback webhooks are refused unless allowed (docs/push.md, SSRF guard)
      push: { signer, allowHosts: ['127.0.0.1'], logger: null },
    });
    const received: VerifiedPush[] = [];
    let receiver: PushReceiverServer | undefined;
    try {
      expect((await cardOf(running.url)).capabilities.pushNotifications).toBe(true);
      const jwks = await fetch(`${running.url}${PUSH_JWKS_PATH}`);
      expect(jwks.status).toBe(200);
      expect(await jwks.json()).toEqual(await signer.jwks());
      receiver = await receivePushNotifications({
        jwks: `${running.url}${PUSH_JWKS_PATH}`,
        allowInsecure: true,
        token: 'tok',
        onEvent: (push) => void received.push(push),
      });
      await running.server.sendMessage(
        {
          message: userMessage('go'),
          configuration: {
            taskPushNotificationConfig: { url: `${receiver.url}/hook`, token: 'tok' },
          },
        },
        {},
      );
      await expect.poll(() => received.length).toBe(2);
      expect(
        received.map((p) => 'statusUpdate' in p.event && p.event.statusUpdate.status.state),
      ).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    } finally {
      await running.close();
      await receiver?.close();
    }
  });

  it('[123] without push the card says pushNotifications: false and no JWKS is served', async () => {
    const running = await serve(agent, { logger: null });
    try {
      expect((await cardOf(running.url)).capabilities.pushNotifications).toBe(false);
      expect((await fetch(`${running.url}${PUSH_JWKS_PATH}`)).status).toBe(404);
    } finally {
      await running.close();
    }
  });

  it('takes a notifier made by hand, and serves the JWKS of its signer', async () => {
    const store = new SqliteTaskStore({ path: ':memory:' });
    const notifier = createPushNotifier({ store, signer, logger: null, start: false });
    const running = await serve(agent, { logger: null, store, push: { notifier } });
    try {
      expect((await cardOf(running.url)).capabilities.pushNotifications).toBe(true);
      expect((await fetch(`${running.url}${PUSH_JWKS_PATH}`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses push next to an A2AServer, which has its own', async () => {
    const server = new A2AServer({ agent, logger: null });
    await expect(serve(server, { push: { signer } })).rejects.toThrow(/give push to the A2AServer/);
    await server.close();
  });
});
