/**
 * Push to a NATS subject (spec §4.3; docs/push.md): a push config `nats://<subject>` gets the
 * task's updates on that subject through the notifier's durable outbox, signed like a webhook
 * delivery (the push receiver verifies them), in log order, retried until someone answers, and
 * stored once by a JetStream stream however often it is retried. Subjects outside the allowed
 * prefixes are refused at creation. Runs when A2A_TEST_NATS_URL is set.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { A2AError } from '../../src/core/errors.js';
import { createPushNotifier, createPushReceiver, PushSigner } from '../../src/push/index.js';
import { A2AServer, createAgent } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { natsPushSink } from '../../src/stores/nats/index.js';
import { describeNats, dropStreams, freshPrefix, NATS_URL } from './nats-helpers.js';

const prefix = freshPrefix();
afterAll(async () => {
  if (NATS_URL) await dropStreams(NATS_URL, [prefix]);
});

const agent = createAgent({
  card: { name: 'pusher', description: 'steps', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working();
    for (let i = 1; i <= 5; i++)
      yield task.artifact(`part ${i}`, { artifactId: 'a', append: i > 1 });
    yield task.completed();
  },
});

describeNats('push to nats://subject', () => {
  let signer: PushSigner;
  let server: A2AServer;
  let nc: NatsConnection;
  beforeAll(async () => {
    signer = await PushSigner.generate({ issuer: 'https://agent.test' });
    const store = new MemoryTaskStore();
    const notifier = createPushNotifier({
      store,
      signer,
      logger: null,
      retry: { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 100 },
      pollIntervalMs: 50,
      sinks: [natsPushSink({ servers: NATS_URL, subjects: [`${prefix}.push`] })],
    });
    server = new A2AServer({ agent, store, ownership: false, logger: null, push: { notifier } });
    nc = await connect({ servers: NATS_URL ?? '' });
  });
  afterAll(async () => {
    await nc?.close();
    await server?.close();
  });

  /** Starts a task with a push config on `url`, returns its id once it has finished. */
  async function runTask(url: string): Promise<string> {
    const result = (await server.invoke(
      'SendMessage',
      {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] },
        configuration: {
          taskPushNotificationConfig: { url, token: 'tok' },
          returnImmediately: false,
        },
      },
      {},
    )) as { task: { id: string } };
    return result.task.id;
  }

  it('[spec §4.3.3] delivers every update in log order, signed and verifiable, to a replying subscriber', async () => {
    const subject = `${prefix}.push.client1`;
    const got: Msg[] = [];
    nc.subscribe(subject, {
      callback: (_e, msg) => {
        got.push(msg);
        msg.respond();
      },
    });
    await nc.flush();
    const taskId = await runTask(`nats://${subject}`);
    // working, five artifact chunks, completed
    await vi.waitFor(() => expect(got).toHaveLength(7), { timeout: 15_000 });
    const receiver = createPushReceiver({
      jwks: await signer.jwks(),
      issuer: 'https://agent.test',
      audience: `nats://${subject}`,
      token: 'tok',
    });
    const events = [];
    for (const msg of got) {
      const h: Record<string, string> = {};
      for (const key of msg.headers?.keys() ?? [])
        h[key.toLowerCase()] = msg.headers?.get(key) ?? '';
      const verified = await receiver.verify({ headers: h, body: msg.data });
      expect(verified.taskId).toBe(taskId);
      events.push(verified.event);
    }
    expect(events[0]).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } });
    expect(
      events
        .slice(1, 6)
        .map((e) => ('artifactUpdate' in e ? e.artifactUpdate.artifact.parts[0] : undefined)),
    ).toEqual([1, 2, 3, 4, 5].map((i) => ({ text: `part ${i}` })));
    expect(events[6]).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('keeps deliveries in the outbox until someone answers, then delivers them all in order', async () => {
    const subject = `${prefix}.push.late`;
    await runTask(`nats://${subject}`); // nobody listens: every attempt gets no responders
    await new Promise((r) => setTimeout(r, 300));
    const got: string[] = [];
    nc.subscribe(subject, {
      callback: (_e, msg) => {
        got.push(msg.string());
        msg.respond();
      },
    });
    await nc.flush();
    await vi.waitFor(() => expect(got).toHaveLength(7), { timeout: 15_000 });
    const kinds = got.map((b) => Object.keys(JSON.parse(b) as object)[0]);
    expect(kinds).toEqual(['statusUpdate', ...Array(5).fill('artifactUpdate'), 'statusUpdate']);
  });

  it('is acknowledged and stored, one message per delivery, by a JetStream stream capturing the subject', async () => {
    const jsm = await jetstreamManager(nc);
    const stream = `${prefix.toUpperCase()}_PUSH`;
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.push.js.>`] });
    await runTask(`nats://${prefix}.push.js.client2`);
    await vi.waitFor(async () => expect((await jsm.streams.info(stream)).state.messages).toBe(7), {
      timeout: 15_000,
    });
  });

  it('[spec §13.2] refuses a subject outside the allowed prefixes when the config is created', async () => {
    const error = await runTask(`nats://${prefix}.agent.SendMessage`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
    const wildcard = await runTask(`nats://${prefix}.push.*`).catch((e: unknown) => e);
    expect(wildcard).toMatchObject({ code: 'INVALID_PARAMS' });
  });
});
