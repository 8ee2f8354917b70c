/**
 * Interop: our A2AClient against an agent built with @a2a-js/sdk 1.3.0 (./a2a-js-server.ts), over
 * JSON-RPC and HTTP+JSON. The `documents …` tests pin down where that SDK departs from the spec
 * (docs/interop.md), asserting its actual behaviour so a fix upstream shows up here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { A2AClient, type A2AClientOptions } from '../../src/client/client.js';
import { TransportError } from '../../src/transport/errors.js';
import { A2AError } from '../../src/core/errors.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { Message, StreamResponse } from '../../src/core/schemas/index.js';
import {
  JSONRPC_PATH,
  REST_PATH,
  SCHEMES_BASE,
  SCHEMES_JSON_BASE,
  startTheirServer,
  type TheirServer,
} from './a2a-js-server.js';
import {
  cutAfterEvents,
  eventKinds,
  failureOf,
  lastState,
  QUESTION,
  taskOf,
  untilState,
} from './helpers.js';

let theirs: TheirServer;
beforeAll(async () => {
  theirs = await startTheirServer();
});
afterAll(async () => {
  await theirs.close();
});
beforeEach(() => {
  // Their handlers log every error they answer with; the tests assert the answers instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

const BINDINGS = [
  { binding: 'JSONRPC', path: JSONRPC_PATH },
  { binding: 'HTTP+JSON', path: REST_PATH },
] as const;

describe.each(BINDINGS)(
  'a2a-kit client → @a2a-js/sdk server over $binding',
  ({ binding, path }) => {
    let client: A2AClient;
    const connect = (options: A2AClientOptions = {}) =>
      A2AClient.connect(theirs.url, {
        preferredBinding: binding,
        retries: { maxAttempts: 1 },
        ...options,
      });
    beforeAll(async () => {
      client = await connect();
    });
    const send = async (text: string, extra: Partial<Message> = {}, returnImmediately = false) =>
      taskOf(
        await client.sendMessage({
          message: userMessage(text, extra),
          ...(returnImmediately ? { configuration: { returnImmediately } } : {}),
        }),
      );

    it('discovers their card and picks the interface of this binding', () => {
      expect(client.card.name).toBe('a2a-js interop agent');
      expect(client.card.capabilities.streaming).toBe(true);
      expect(client.selectedInterface).toMatchObject({
        protocolBinding: binding,
        protocolVersion: '1.0',
        url: `${theirs.url}${path}`,
      });
    });

    it('blocking SendMessage returns the completed task with its artifact and history', async () => {
      const task = await send('hello');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.map((a) => textOf(a))).toEqual(['echo: hello']);
      expect(task.history?.[0]).toMatchObject({ role: 'ROLE_USER', taskId: task.id });
      expect(task.contextId).toBeTruthy();
    });

    it('SendMessage answered by a bare Message', async () => {
      const result = await client.sendMessage({ message: userMessage('message') });
      if (!('message' in result)) throw new Error('expected a message');
      expect(result.message.role).toBe('ROLE_AGENT');
      expect(textOf(result.message)).toBe('echo: message');
    });

    it('non-blocking SendMessage returns at once; GetTask polling sees the task finish', async () => {
      const key = `poll-${binding}`;
      const task = await send(`gate ${key}`, {}, true);
      expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
      const working = await untilState(() => client.getTask({ id: task.id }), 'TASK_STATE_WORKING');
      expect(working.artifacts ?? []).toEqual([]);
      theirs.release(key);
      const done = await untilState(() => client.getTask({ id: task.id }), 'TASK_STATE_COMPLETED');
      expect(textOf(done.artifacts?.[0])).toBe(`released ${key}`);
      expect((await client.getTask({ id: task.id, historyLength: 0 })).history).toBeUndefined();
    });

    it('SendStreamingMessage yields task, WORKING, artifact, COMPLETED (no SSE ids)', async () => {
      const stream = client.sendStreamingMessage({ message: userMessage('stream me') });
      const events: StreamResponse[] = [];
      for await (const event of stream) events.push(event);
      expect(eventKinds(events)).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
      expect(events[2]).toHaveProperty('artifactUpdate.artifact.parts', [
        { text: 'echo: stream me', mediaType: 'text/plain' },
      ]);
      expect(stream.lastEventId).toBeUndefined();
    });

    it('streams an artifact in appended chunks, and GetTask has them joined', async () => {
      const events: StreamResponse[] = [];
      for await (const event of client.sendStreamingMessage({ message: userMessage('chunks') }))
        events.push(event);
      const chunks = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
      expect(
        chunks.map((c) => [textOf(c.artifact), c.append ?? false, c.lastChunk ?? false]),
      ).toEqual([
        ['one ', false, false],
        ['two ', true, false],
        ['three', true, true],
      ]);
      const task = await client.getTask({ id: chunks[0]?.taskId ?? '' });
      expect(task.artifacts?.map((a) => a.parts.map((p) => p.text))).toEqual([
        ['one ', 'two ', 'three'],
      ]);
    });

    it('SubscribeToTask starts with the task snapshot and follows it to the end', async () => {
      const key = `subscribe-${binding}`;
      const task = await send(`gate ${key}`, {}, true);
      await untilState(() => client.getTask({ id: task.id }), 'TASK_STATE_WORKING');
      const events: StreamResponse[] = [];
      for await (const event of client.subscribeToTask({ id: task.id })) {
        events.push(event);
        if (events.length === 1) theirs.release(key);
      }
      expect(eventKinds(events)).toEqual([
        'task:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
    });

    it('CancelTask stops a running task; a concurrent subscriber sees CANCELED', async () => {
      const task = await send('slow', {}, true);
      await untilState(() => client.getTask({ id: task.id }), 'TASK_STATE_WORKING');
      let subscribed = () => {};
      const firstEvent = new Promise<void>((resolve) => (subscribed = resolve));
      const watching = (async () => {
        const events: StreamResponse[] = [];
        for await (const event of client.subscribeToTask({ id: task.id })) {
          events.push(event);
          subscribed();
        }
        return events;
      })();
      await Promise.race([firstEvent, watching]);
      const canceled = await client.cancelTask({ id: task.id });
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      expect(lastState(await watching)).toBe('TASK_STATE_CANCELED');
      expect((await client.getTask({ id: task.id })).status.state).toBe('TASK_STATE_CANCELED');
    });

    it('multi-turn: INPUT_REQUIRED with a question, the answer on the same task completes it', async () => {
      const asked = await send('ask');
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(asked.status.message).toMatchObject({ role: 'ROLE_AGENT' });
      expect(textOf(asked.status.message)).toBe(QUESTION);
      const done = await send('Ada', { taskId: asked.id, contextId: asked.contextId });
      expect(done.id).toBe(asked.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(textOf(done.artifacts?.[0])).toBe('thanks, Ada');
    });

    it('multi-turn over a stream: the answer streams the task from INPUT_REQUIRED to COMPLETED', async () => {
      const events: StreamResponse[] = [];
      for await (const e of client.sendStreamingMessage({ message: userMessage('ask') }))
        events.push(e);
      expect(lastState(events)).toBe('TASK_STATE_INPUT_REQUIRED');
      const asked = events[0] && 'task' in events[0] ? events[0].task : undefined;
      const answer: StreamResponse[] = [];
      for await (const e of client.sendStreamingMessage({
        message: userMessage('Grace', { taskId: asked?.id ?? '' }),
      }))
        answer.push(e);
      // Their first event is the task snapshot still in INPUT_REQUIRED, then the new turn.
      expect(eventKinds(answer)).toEqual([
        'task:TASK_STATE_INPUT_REQUIRED',
        'status:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
    });

    it('CancelTask of a task waiting in INPUT_REQUIRED cancels it', async () => {
      const asked = await send('ask');
      const canceled = await client.cancelTask({ id: asked.id });
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    });

    it('ListTasks filters by context and state, pages with nextPageToken, omits artifacts', async () => {
      const first = await send('list one');
      const contextId = first.contextId ?? '';
      await send('list two', { contextId });
      await send('list three', { contextId });
      const all = await client.listTasks({ contextId });
      expect(all.tasks).toHaveLength(3);
      expect(all.totalSize).toBe(3);
      expect(all.nextPageToken).toBe('');
      expect(all.tasks.every((t) => t.artifacts === undefined)).toBe(true);
      const page1 = await client.listTasks({ contextId, pageSize: 2 });
      expect(page1.tasks).toHaveLength(2);
      expect(page1.nextPageToken).not.toBe('');
      const page2 = await client.listTasks({
        contextId,
        pageSize: 2,
        pageToken: page1.nextPageToken,
      });
      expect(new Set([...page1.tasks, ...page2.tasks].map((t) => t.id)).size).toBe(3);
      const canceled = await client.listTasks({ contextId, status: 'TASK_STATE_CANCELED' });
      expect(canceled.tasks).toEqual([]);
      const withArtifacts = await client.listTasks({
        contextId,
        includeArtifacts: true,
        pageSize: 1,
      });
      expect(withArtifacts.tasks[0]?.artifacts).toHaveLength(1);
    });

    it('a dropped stream resumes with SubscribeToTask from their task snapshot', async () => {
      const key = `resume-${binding}`;
      const resumes: (string | undefined)[] = [];
      const cutting = await connect({
        fetch: cutAfterEvents(2),
        resume: { baseDelayMs: 1, maxDelayMs: 1 },
        onResume: (n) => resumes.push(n.lastEventId),
      });
      const events: StreamResponse[] = [];
      for await (const e of cutting.sendStreamingMessage({ message: userMessage(`gate ${key}`) })) {
        events.push(e);
        if (events.length === 3) theirs.release(key);
      }
      // No SSE ids, so no Last-Event-ID: the resumed stream starts with a snapshot, not a replay.
      expect(resumes).toEqual([undefined]);
      expect(eventKinds(events)).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
        'task:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
    });

    it('a follow-up stream dropped after their stale INPUT_REQUIRED snapshot is resumed (requirement 122 of test/conformance/requirements.ts)', async () => {
      // Their follow-up stream opens with the task still INPUT_REQUIRED (the answer is not yet
      // applied). Our client takes that state as settled and, when the connection drops right
      // after it, ends the stream quietly instead of resubscribing: the caller never learns that
      // the task went on to COMPLETED.
      const asked = await send('ask');
      const cutting = await connect({ fetch: cutAfterEvents(1), resume: { baseDelayMs: 1 } });
      const events: StreamResponse[] = [];
      for await (const e of cutting.sendStreamingMessage({
        message: userMessage('Alan', { taskId: asked.id }),
      }))
        events.push(e);
      expect(lastState(events)).toBe('TASK_STATE_COMPLETED');
    });

    describe('errors', () => {
      it('GetTask and CancelTask of an unknown task: TASK_NOT_FOUND', async () => {
        for (const call of [
          () => client.getTask({ id: 'no-such-task' }),
          () => client.cancelTask({ id: 'no-such-task' }),
        ]) {
          const error = await failureOf(call());
          expect(error).toBeInstanceOf(A2AError);
          expect(error).toMatchObject({ code: 'TASK_NOT_FOUND' });
        }
      });

      it('a message naming an unknown taskId: TASK_NOT_FOUND', async () => {
        const error = await failureOf(send('hello', { taskId: 'no-such-task' }));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'TASK_NOT_FOUND' });
      });

      it('an answer naming the task but another contextId: INVALID_PARAMS', async () => {
        const asked = await send('ask');
        const error = await failureOf(send('Ada', { taskId: asked.id, contextId: 'another' }));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
      });

      it('a message to a terminal task: UNSUPPORTED_OPERATION (blocking and streaming)', async () => {
        const done = await send('finish me');
        const error = await failureOf(send('again', { taskId: done.id }));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
        const streamed = await failureOf(
          (async () => {
            for await (const _ of client.sendStreamingMessage({
              message: userMessage('again', { taskId: done.id }),
            })) {
              /* none expected */
            }
          })(),
        );
        expect(streamed).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      });

      it('CancelTask of a completed task: TASK_NOT_CANCELABLE; of a canceled one: the task again', async () => {
        const done = await send('finish me too');
        const error = await failureOf(client.cancelTask({ id: done.id }));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'TASK_NOT_CANCELABLE' });
        const asked = await send('ask');
        await client.cancelTask({ id: asked.id });
        const again = await client.cancelTask({ id: asked.id });
        expect(again.status.state).toBe('TASK_STATE_CANCELED');
      });

      it('an agent that throws: the task ends FAILED with their status message', async () => {
        const failed = await send('fail');
        expect(failed.status.state).toBe('TASK_STATE_FAILED');
        expect(textOf(failed.status.message)).toContain('failing on purpose');
      });

      it('an error in the middle of a stream arrives as an A2AError after the events before it', async () => {
        const events: StreamResponse[] = [];
        const error = await failureOf(
          (async () => {
            for await (const e of client.sendStreamingMessage({
              message: userMessage('badstream'),
            }))
              events.push(e);
          })(),
        );
        expect(eventKinds(events)).toEqual([
          'task:TASK_STATE_SUBMITTED',
          'status:TASK_STATE_WORKING',
        ]);
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      });

      it('SubscribeToTask of a terminal task: UNSUPPORTED_OPERATION', async () => {
        const done = await send('finished');
        const error = await failureOf(
          (async () => {
            for await (const _ of client.subscribeToTask({ id: done.id })) {
              /* none expected */
            }
          })(),
        );
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      });
    });

    describe('where @a2a-js/sdk 1.3.0 departs from the spec', () => {
      it('documents that @a2a-js/sdk filters statusTimestampAfter with > where the spec says ≥ (requirement 98 of test/conformance/requirements.ts)', async () => {
        const task = await send('timestamped');
        const at = task.status.timestamp ?? '';
        const listed = await client.listTasks({
          contextId: task.contextId,
          statusTimestampAfter: at,
        });
        expect(listed.tasks).toEqual([]); // the spec keeps the task whose timestamp equals `at`
      });

      it(`documents how @a2a-js/sdk treats a negative historyLength over ${binding} (requirement 99 of test/conformance/requirements.ts: invalid params)`, async () => {
        const task = await send('history');
        const answer = client.getTask({ id: task.id, historyLength: -1 });
        if (binding === 'JSONRPC') {
          // Their JSON-RPC handler reads it as 0 instead of refusing it.
          expect((await answer).history).toBeUndefined();
        } else {
          expect(await failureOf(answer)).toMatchObject({ code: 'INVALID_PARAMS' });
        }
      });

      it('documents that @a2a-js/sdk refuses A2A-Version 1.0.1 (spec §3.6: patch versions must not matter)', async () => {
        const patched = await connect({ headers: { 'A2A-Version': '1.0.1' } });
        const error = await failureOf(patched.getTask({ id: 'no-such-task' }));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ code: 'VERSION_NOT_SUPPORTED' });
      });
    });
  },
);

describe('where @a2a-js/sdk 1.3.0 departs from the spec (any binding)', () => {
  it('documents that @a2a-js/sdk serves securitySchemes in its internal `$case` form, which our client rejects', async () => {
    const cardUrl = `${theirs.url}${SCHEMES_BASE}/.well-known/agent-card.json`;
    const served = (await (await fetch(cardUrl)).json()) as Record<string, unknown>;
    expect(served.securitySchemes).toEqual({
      bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: expect.any(Object) } },
    });
    const error = await failureOf(A2AClient.connect(`${theirs.url}${SCHEMES_BASE}`));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('reads their card with securitySchemes when it is served through AgentCard.toJSON (the workaround)', async () => {
    const client = await A2AClient.connect(`${theirs.url}${SCHEMES_JSON_BASE}`);
    expect(client.card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    });
    expect(client.card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
  });

  it('documents that @a2a-js/sdk CancelTask of a parked task never answers unless the executor itself publishes CANCELED', async () => {
    const client = await A2AClient.connect(theirs.url, { retries: { maxAttempts: 1 } });
    const asked = taskOf(await client.sendMessage({ message: userMessage('ask quietly') }));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const error = await failureOf(client.cancelTask({ id: asked.id }, { timeoutMs: 300 }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((await client.getTask({ id: asked.id })).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('documents that the @a2a-js/sdk JSON-RPC endpoint refuses Content-Type application/a2a+json', async () => {
    const client = await A2AClient.connect(theirs.url, {
      preferredBinding: 'JSONRPC',
      headers: { 'Content-Type': 'application/a2a+json' },
    });
    const error = await failureOf(client.getTask({ id: 'no-such-task' }));
    expect(error).toMatchObject({ code: 'CONTENT_TYPE_NOT_SUPPORTED' });
  });
});
