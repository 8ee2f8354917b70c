/**
 * Faults of the NATS binding and bus against a real nats-server of this test alone (never the
 * shared one): NATS restarted in the middle of a stream (the client resumes; no event lost or
 * repeated), a slow consumer (the per-message ack paces the server; nothing dropped), and
 * messages over NATS's max payload (refused with a clear error; the bus reads them from the
 * store). Runs when A2A_TEST_NATS_URL is set (the machine has NATS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_BINDING } from '../../src/bindings/nats/index.js';
import { A2AClient, A2AError, userMessage } from '../../src/client/index.js';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { createAgent, textOf } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { NatsEventBus } from '../../src/stores/nats/index.js';
import type { LogEntry } from '../../src/stores/types.js';
import { isTransportError } from '../../src/transport/errors.js';
import { scriptedAgent } from '../helpers/agents.js';
import { describeNats, PrivateNats } from './nats-helpers.js';

/** The artifact texts of a stream's events, in order. */
const texts = (events: StreamResponse[]) =>
  events.flatMap((e) =>
    'artifactUpdate' in e
      ? e.artifactUpdate.artifact.parts.map((p) => ('text' in p ? p.text : '?'))
      : [],
  );

describeNats('NATS faults', () => {
  describe('NATS restarted during a stream', () => {
    let nats: PrivateNats;
    let running: ServeResult;
    const { agent, probe } = scriptedAgent();
    beforeAll(async () => {
      nats = await PrivateNats.start();
      running = await serve(agent, {
        port: 0,
        logger: null,
        nats: { servers: nats.url, subject: 'a2a.faults' },
      });
    });
    afterAll(async () => {
      await running?.close();
      await nats?.dispose();
    });

    it('[spec §3.1.6, §12.5] the client resumes after the restart: every event once, in order', async () => {
      const notices: unknown[] = [];
      const client = await A2AClient.connect(running.url, {
        preferredBinding: NATS_BINDING,
        onResume: (n) => notices.push(n),
      });
      const events: StreamResponse[] = [];
      const ids: string[] = [];
      probe.gates.release('r', 2);
      const stream = client.sendStreamingMessage({ message: userMessage('steps 6 r') });
      for await (const event of stream) {
        events.push(event);
        if (stream.lastEventId !== undefined) ids.push(stream.lastEventId);
        if (texts(events).length === 2 && !notices.length && events.length < 100) {
          await nats.stop(); // events 3 and 4 happen while NATS is down
          probe.gates.release('r', 2);
          await new Promise((r) => setTimeout(r, 300));
          await nats.run();
          probe.gates.release('r', 2);
        }
      }
      client.close?.();
      expect(texts(events)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `step ${i}`));
      expect(events.at(-1)).toMatchObject({
        statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
      });
      expect(new Set(ids).size).toBe(ids.length); // no event twice
      expect(notices.length).toBeGreaterThan(0); // it really resumed
    });
  });

  describe('a slow consumer', () => {
    let nats: PrivateNats;
    let running: ServeResult;
    const { agent } = scriptedAgent();
    beforeAll(async () => {
      nats = await PrivateNats.start();
      running = await serve(agent, {
        port: 0,
        logger: null,
        nats: { servers: nats.url, subject: 'a2a.slow' },
      });
    });
    afterAll(async () => {
      await running?.close();
      await nats?.dispose();
    });

    it('[spec §12.5] gets all of a fast stream, in order, however slowly it reads', async () => {
      const client = await A2AClient.connect(running.url, { preferredBinding: NATS_BINDING });
      const events: StreamResponse[] = [];
      for await (const event of client.sendStreamingMessage({
        message: userMessage('chunks 300'),
      })) {
        events.push(event);
        await new Promise((r) => setTimeout(r, 2)); // slower than the agent produces
      }
      client.close?.();
      expect(texts(events)).toEqual(Array.from({ length: 300 }, (_, i) => `chunk ${i + 1} `));
    });
  });

  describe("messages over NATS's max payload", () => {
    const MAX = 32 * 1024;
    let nats: PrivateNats;
    let running: ServeResult;
    const big = createAgent({
      card: { name: 'big', description: 'large artifacts', version: '1.0.0', skills: [] },
      async *execute({ task, message }) {
        yield task.working();
        yield task.artifact('small first', { artifactId: 'small' });
        yield task.artifact('x'.repeat(Number(textOf(message))), { artifactId: 'big' });
        yield task.completed();
      },
    });
    beforeAll(async () => {
      nats = await PrivateNats.start({ maxPayload: MAX });
      running = await serve(big, {
        port: 0,
        logger: null,
        nats: { servers: nats.url, subject: 'a2a.big' },
      });
    });
    afterAll(async () => {
      await running?.close();
      await nats?.dispose();
    });

    it('refuses a stream event and a reply over the limit with PAYLOAD_TOO_LARGE naming the limit', async () => {
      const client = await A2AClient.connect(running.url, {
        preferredBinding: NATS_BINDING,
        resume: false,
      });
      const events: StreamResponse[] = [];
      const error = await (async () => {
        for await (const event of client.sendStreamingMessage({
          message: userMessage(String(2 * MAX)),
        }))
          events.push(event);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(A2AError);
      expect(error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: expect.stringContaining(`${MAX} bytes`),
      });
      expect(texts(events)).toEqual(['small first']); // what fit came first, in order
      const taskId = events.find((e) => 'task' in e) as { task: { id: string } };
      await expect(client.getTask({ id: taskId.task.id })).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
      });
      // The same task over HTTP is whole: the limit is NATS's, not the task's.
      const http = await A2AClient.connect(running.url);
      expect((await http.getTask({ id: taskId.task.id })).artifacts?.[1]?.parts[0]).toEqual({
        text: 'x'.repeat(2 * MAX),
      });
      client.close?.();
    });

    it('refuses a request over the limit locally, with a clear error', async () => {
      const client = await A2AClient.connect(running.url, { preferredBinding: NATS_BINDING });
      const error = await client
        .sendMessage({ message: userMessage('y'.repeat(2 * MAX)) })
        .catch((e: unknown) => e);
      expect(isTransportError(error, 'NETWORK')).toBe(true);
      expect(String((error as Error).message)).toContain(`max payload of ${MAX} bytes`);
      client.close?.();
    });

    it('the bus sends an entry over the limit without body and the receiver reads it from the store', async () => {
      const store = new MemoryTaskStore();
      const entry: LogEntry = {
        seq: 1,
        event: {
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'z'.repeat(2 * MAX) }] },
        },
      };
      const source = {
        entryAt: () => Promise.resolve(entry),
        lastEntry: () => Promise.resolve(entry),
      };
      const [a, b] = [
        await NatsEventBus.open({ servers: nats.url, prefix: 'big', store: source }),
        await NatsEventBus.open({ servers: nats.url, prefix: 'big' }),
      ];
      try {
        const got: LogEntry[] = [];
        await a.subscribe('', 't', (e) => got.push(e));
        await b.publish('', 't', entry);
        await expect.poll(() => got.length, { timeout: 10_000 }).toBe(1);
        expect(got[0]).toEqual(entry);
      } finally {
        await Promise.all([a.close(), b.close(), store.close()]);
      }
    });
  });
});
