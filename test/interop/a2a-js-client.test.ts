/**
 * Interop: the @a2a-js/sdk 1.3.0 client against our server (`serve()`), over JSON-RPC and
 * HTTP+JSON. Their client works on ts-proto objects: numeric enums, `{ $case, value }` oneofs.
 */
import { randomUUID } from 'node:crypto';
import {
  Role,
  TaskState,
  type Message as TheirMessage,
  type StreamResponse as TheirEvent,
  type Task as TheirTask,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import {
  A2AError as TheirA2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { Gates, QUESTION } from './helpers.js';
import { createInteropAgent } from './our-agent.js';

const gates = new Gates();
let ours: ServeResult;
beforeAll(async () => {
  ours = await serve(createInteropAgent(gates), { port: 0, logger: null });
});
afterAll(async () => {
  await ours.close();
});

/** A user message in their shape (every string field set, as their types require). */
const userMessage = (text: string, extra: Partial<TheirMessage> = {}): TheirMessage => ({
  messageId: randomUUID(),
  role: Role.ROLE_USER,
  parts: [
    { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
  ],
  contextId: '',
  taskId: '',
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
  ...extra,
});

const request = (message: TheirMessage, returnImmediately = false) => ({
  tenant: '',
  message,
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately,
  },
  metadata: undefined,
});

function isTask(value: unknown): value is TheirTask {
  return typeof value === 'object' && value !== null && 'status' in value && 'id' in value;
}

function asTask(value: unknown): TheirTask {
  if (!isTask(value)) throw new Error(`expected a task, got ${JSON.stringify(value)}`);
  return value;
}

const stateOf = (task: TheirTask) =>
  TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];

/** The text parts of a message or artifact, joined. */
const textIn = (holder: { parts: TheirMessage['parts'] } | undefined) =>
  (holder?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** One word per event, as in helpers.eventKinds, from their `{ payload: { $case, value } }`. */
function kinds(events: readonly TheirEvent[]): string[] {
  return events.map((e) => {
    const p = e.payload;
    switch (p?.$case) {
      case 'task':
        return `task:${TaskState[p.value.status?.state ?? 0]}`;
      case 'statusUpdate':
        return `status:${TaskState[p.value.status?.state ?? 0]}`;
      case 'artifactUpdate':
        return 'artifact';
      case 'message':
        return 'message';
      case undefined:
        return '?';
    }
  });
}

async function collect(stream: AsyncIterable<TheirEvent>): Promise<TheirEvent[]> {
  const events: TheirEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function untilState(get: () => Promise<TheirTask>, state: TaskState): Promise<TheirTask> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const task = await get();
    if (task.status?.state === state) return task;
    if (Date.now() > deadline) throw new Error(`task ${task.id} still ${stateOf(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const BINDINGS = [
  { binding: 'JSONRPC', path: '/a2a/jsonrpc' },
  { binding: 'HTTP+JSON', path: '/a2a/rest' },
] as const;

describe.each(BINDINGS)('@a2a-js/sdk client → a2a-kit server over $binding', ({ binding }) => {
  const factory = (polling = false) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
        preferredTransports: [binding],
        clientConfig: { polling },
      }),
    );
  let client: Client;
  beforeAll(async () => {
    client = await factory().createFromUrl(ours.url);
  });
  const send = async (text: string, extra: Partial<TheirMessage> = {}, returnImmediately = false) =>
    asTask(await client.sendMessage(request(userMessage(text, extra), returnImmediately)));
  const getTask = (id: string, historyLength?: number) =>
    client.getTask({ tenant: '', id, ...(historyLength === undefined ? {} : { historyLength }) });
  const cancel = (id: string) => client.cancelTask({ tenant: '', id, metadata: undefined });
  const subscribe = (id: string) => client.resubscribeTask({ tenant: '', id });
  /**
   * Our INVALID_PARAMS: JSON-RPC -32602, which their client reads as RequestMalformedError; over
   * REST a 400 INVALID_ARGUMENT Status with a BadRequest detail and no A2A ErrorInfo (it is no A2A
   * error), which their REST client, keyed on ErrorInfo reasons, leaves a generic A2AError.
   */
  const expectMalformed = (error: unknown) => {
    if (binding === 'JSONRPC') return expect(error).toBeInstanceOf(RequestMalformedError);
    expect(error).toBeInstanceOf(TheirA2AError);
    expect(error).not.toBeInstanceOf(RequestMalformedError);
    expect(error).toMatchObject({ statusCode: 400 });
  };

  it('discovers our card and talks to the interface of this binding', async () => {
    expect(client.transport.protocolName).toBe(binding);
    expect(client.protocolVersion).toBe('1.0');
    const card = await client.getAgentCard();
    expect(card.name).toBe('a2a-kit interop agent');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toContain(binding);
  });

  it('blocking sendMessage gets the completed task with its artifact and history', async () => {
    const task = await send('hello');
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts.map(textIn)).toEqual(['echo: hello']);
    expect(task.history[0]).toMatchObject({ role: Role.ROLE_USER });
    expect(task.contextId).not.toBe('');
  });

  it('sendMessage answered by a bare Message', async () => {
    const reply = await client.sendMessage(request(userMessage('message')));
    expect(isTask(reply)).toBe(false);
    expect(reply).toMatchObject({ role: Role.ROLE_AGENT });
    expect(textIn(reply as TheirMessage)).toBe('echo: message');
  });

  it('non-blocking sendMessage returns at once; getTask polling sees the task finish', async () => {
    const key = `their-poll-${binding}`;
    const task = await send(`gate ${key}`, {}, true);
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(stateOf(task));
    await untilState(() => getTask(task.id), TaskState.TASK_STATE_WORKING);
    gates.open(key);
    const done = await untilState(() => getTask(task.id), TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts.map(textIn)).toEqual([`released ${key}`]);
    expect((await getTask(task.id, 0)).history).toEqual([]);
  });

  it('a client configured for polling gets the task back before it finishes', async () => {
    const key = `their-polling-client-${binding}`;
    const polling = await factory(true).createFromUrl(ours.url);
    const task = asTask(
      await polling.sendMessage({ tenant: '', message: userMessage(`gate ${key}`) } as never),
    );
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(stateOf(task));
    gates.open(key);
    await untilState(() => getTask(task.id), TaskState.TASK_STATE_COMPLETED);
  });

  it('sendMessageStream yields task, WORKING, artifact, COMPLETED', async () => {
    const events = await collect(client.sendMessageStream(request(userMessage('stream me'))));
    expect(kinds(events)).toEqual([
      'task:TASK_STATE_SUBMITTED',
      'status:TASK_STATE_WORKING',
      'artifact',
      'status:TASK_STATE_COMPLETED',
    ]);
    const artifact = events[2]?.payload;
    expect(artifact?.$case === 'artifactUpdate' && textIn(artifact.value.artifact)).toBe(
      'echo: stream me',
    );
  });

  it('streams an artifact in appended chunks, and getTask has them joined', async () => {
    const events = await collect(client.sendMessageStream(request(userMessage('chunks'))));
    const chunks = events.flatMap((e) =>
      e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : [],
    );
    expect(chunks.map((c) => [textIn(c.artifact), c.append, c.lastChunk])).toEqual([
      ['one ', false, false],
      ['two ', true, false],
      ['three', true, true],
    ]);
    const task = await getTask(chunks[0]?.taskId ?? '');
    expect(task.artifacts.map(textIn)).toEqual(['one two three']);
  });

  it('resubscribeTask starts with the task snapshot and follows it to the end', async () => {
    const key = `their-subscribe-${binding}`;
    const task = await send(`gate ${key}`, {}, true);
    await untilState(() => getTask(task.id), TaskState.TASK_STATE_WORKING);
    const events: TheirEvent[] = [];
    for await (const e of subscribe(task.id)) {
      events.push(e);
      if (events.length === 1) gates.open(key);
    }
    expect(kinds(events)).toEqual([
      'task:TASK_STATE_WORKING',
      'artifact',
      'status:TASK_STATE_COMPLETED',
    ]);
  });

  it('cancelTask stops a running task; a concurrent subscriber sees CANCELED', async () => {
    const task = await send('slow', {}, true);
    await untilState(() => getTask(task.id), TaskState.TASK_STATE_WORKING);
    let subscribed = () => {};
    const firstEvent = new Promise<void>((resolve) => (subscribed = resolve));
    const watching = (async () => {
      const events: TheirEvent[] = [];
      for await (const e of subscribe(task.id)) {
        events.push(e);
        subscribed();
      }
      return events;
    })();
    await Promise.race([firstEvent, watching]);
    const canceled = await cancel(task.id);
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    expect(kinds(await watching).at(-1)).toBe('status:TASK_STATE_CANCELED');
    expect(stateOf(await getTask(task.id))).toBe('TASK_STATE_CANCELED');
  });

  it('multi-turn: INPUT_REQUIRED with a question, the answer on the same task completes it', async () => {
    const asked = await send('ask');
    expect(stateOf(asked)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(asked.status?.message?.role).toBe(Role.ROLE_AGENT);
    expect(textIn(asked.status?.message)).toBe(QUESTION);
    const done = await send('Ada', { taskId: asked.id, contextId: asked.contextId });
    expect(done.id).toBe(asked.id);
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts.map(textIn)).toEqual(['thanks, Ada']);
  });

  it('multi-turn over a stream: the answer streams the task from INPUT_REQUIRED to COMPLETED', async () => {
    const first = await collect(client.sendMessageStream(request(userMessage('ask'))));
    expect(kinds(first).at(-1)).toBe('status:TASK_STATE_INPUT_REQUIRED');
    const opening = first[0]?.payload;
    const taskId = opening?.$case === 'task' ? opening.value.id : '';
    const answer = await collect(
      client.sendMessageStream(request(userMessage('Grace', { taskId }))),
    );
    // We record the answer as a move back to SUBMITTED before the agent resumes, so the first
    // event already shows the task active again (theirs shows the stale INPUT_REQUIRED).
    expect(kinds(answer)).toEqual([
      'task:TASK_STATE_SUBMITTED',
      'status:TASK_STATE_WORKING',
      'artifact',
      'status:TASK_STATE_COMPLETED',
    ]);
  });

  it('cancelTask of a task waiting in INPUT_REQUIRED cancels it', async () => {
    const asked = await send('ask');
    expect(stateOf(await cancel(asked.id))).toBe('TASK_STATE_CANCELED');
  });

  it('listTasks filters by context and state, pages with nextPageToken, omits artifacts', async () => {
    const first = await send('list one');
    const { contextId } = first;
    await send('list two', { contextId });
    await send('list three', { contextId });
    const list = (extra: Record<string, unknown> = {}) =>
      client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
        ...extra,
      });
    const all = await list();
    expect(all.tasks).toHaveLength(3);
    expect(all.totalSize).toBe(3);
    expect(all.nextPageToken).toBe('');
    expect(all.tasks.every((t) => t.artifacts.length === 0)).toBe(true);
    const page1 = await list({ pageSize: 2 });
    expect(page1.tasks).toHaveLength(2);
    expect(page1.nextPageToken).not.toBe('');
    const page2 = await list({ pageSize: 2, pageToken: page1.nextPageToken });
    expect(new Set([...page1.tasks, ...page2.tasks].map((t) => t.id)).size).toBe(3);
    expect((await list({ status: TaskState.TASK_STATE_CANCELED })).tasks).toEqual([]);
    const withArtifacts = await list({ includeArtifacts: true, pageSize: 1 });
    expect(withArtifacts.tasks[0]?.artifacts).toHaveLength(1);
    // statusTimestampAfter keeps tasks updated at or after it (requirement 98 of test/conformance/requirements.ts: ≥).
    const newest = all.tasks[0];
    const since = await list({ statusTimestampAfter: newest?.status?.timestamp });
    expect(since.tasks.map((t) => t.id)).toContain(newest?.id);
  });

  describe('errors', () => {
    it('getTask and cancelTask of an unknown task: TaskNotFoundError', async () => {
      for (const call of [() => getTask('no-such-task'), () => cancel('no-such-task')]) {
        const error = await failureOf(call());
        expect(error).toBeInstanceOf(TaskNotFoundError);
        expect(error).toBeInstanceOf(TheirA2AError);
      }
    });

    it('a message naming an unknown taskId: TaskNotFoundError', async () => {
      expect(await failureOf(send('hello', { taskId: 'no-such-task' }))).toBeInstanceOf(
        TaskNotFoundError,
      );
    });

    it('an answer naming the task but another contextId is refused as malformed', async () => {
      const asked = await send('ask');
      const error = await failureOf(send('Ada', { taskId: asked.id, contextId: 'another' }));
      expectMalformed(error);
    });

    it('a negative historyLength is refused as malformed (requirement 99 of test/conformance/requirements.ts)', async () => {
      const task = await send('history');
      expectMalformed(await failureOf(getTask(task.id, -1)));
    });

    it('a message to a terminal task: UnsupportedOperationError (blocking and streaming)', async () => {
      const done = await send('finish me');
      expect(await failureOf(send('again', { taskId: done.id }))).toBeInstanceOf(
        UnsupportedOperationError,
      );
      const streamed = await failureOf(
        collect(client.sendMessageStream(request(userMessage('again', { taskId: done.id })))),
      );
      expect(streamed).toBeInstanceOf(UnsupportedOperationError);
    });

    it('cancelTask of a completed task: TaskNotCancelableError', async () => {
      const done = await send('finish me too');
      expect(await failureOf(cancel(done.id))).toBeInstanceOf(TaskNotCancelableError);
    });

    it('resubscribeTask of a terminal task: UnsupportedOperationError', async () => {
      const done = await send('finished');
      expect(await failureOf(collect(subscribe(done.id)))).toBeInstanceOf(
        UnsupportedOperationError,
      );
    });

    it('an agent that throws: the task ends FAILED with a status message', async () => {
      const failed = await send('fail');
      expect(stateOf(failed)).toBe('TASK_STATE_FAILED');
      expect(failed.status?.message?.role).toBe(Role.ROLE_AGENT);
    });
  });
});
