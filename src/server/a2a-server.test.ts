import { describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { textOf, userMessage } from '../core/parts.js';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { createAgent, type Agent } from './agent.js';
import { A2AServer } from './a2a-server.js';

const skills = [{ id: 's', name: 'S', description: 'd', tags: ['t'] }];

/** A server counting agent runs; retries count within 10 minutes of the first attempt. */
function counting(execute: Agent['execute'], extra: Partial<Agent['card']> = {}) {
  let runs = 0;
  const agent = createAgent({
    card: { name: 'T', description: 'test', version: '1', skills, ...extra },
    execute(ctx) {
      runs++;
      return execute(ctx);
    },
  });
  return {
    server: new A2AServer({ agent, logger: null, idempotency: { windowMs: 600_000 } }),
    runs: () => runs,
  };
}

const echo: Agent['execute'] = async function* ({ message, task }) {
  yield task.working();
  yield task.artifact(`You said: ${textOf(message)}`);
  yield task.completed();
};

async function collect(
  stream: AsyncIterable<{ event: StreamResponse }>,
): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const item of stream) events.push(item.event);
  return events;
}

function taskOf(result: { task: Task } | { message: unknown }): Task {
  if (!('task' in result)) throw new Error('expected a task');
  return result.task;
}

describe('A2AServer', () => {
  it('[68] runs the agent once for a retried message and answers with the first task', async () => {
    const { server, runs } = counting(echo);
    const message = userMessage('once');
    const [a, b] = await Promise.all([
      server.sendMessage({ message }, {}),
      server.sendMessage({ message }, {}),
    ]);
    const c = await server.sendMessage({ message }, {});
    expect(runs()).toBe(1);
    expect(taskOf(a).id).toBe(taskOf(b).id);
    expect(taskOf(c).id).toBe(taskOf(a).id);
    expect(taskOf(c).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('does not run the agent again for a retried message-only reply', async () => {
    const { server, runs } = counting(async function* ({ task }) {
      yield task.reply('hello');
    });
    const message = userMessage('hi');
    const first = await server.sendMessage({ message }, {});
    const again = await server.sendMessage({ message }, {});
    expect(runs()).toBe(1);
    expect(again).toEqual(first);
  });

  it('[100] cancel wins over a running agent, aborts its signal and is recorded once', async () => {
    let aborted = false;
    const { server } = counting(async function* ({ task, signal }) {
      yield task.working();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      aborted = true;
      yield task.completed('too late');
    });
    const created = taskOf(
      await server.sendMessage(
        { message: userMessage('x'), configuration: { returnImmediately: true } },
        {},
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    const canceled = await server.cancelTask({ id: created.id }, {});
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await server.idle();
    expect(aborted).toBe(true);
    const after = await server.getTask({ id: created.id }, {});
    expect(after.status.state).toBe('TASK_STATE_CANCELED');
    const again = await server.cancelTask({ id: created.id }, {});
    expect(again.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('[100] gives an agent that first reads its signal after a cancel an aborted signal', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let seen: AbortSignal | undefined;
    const { server } = counting(async function* (context) {
      yield context.task.working();
      await gate; // the signal is not read before the cancel
      seen = context.signal;
      if (!seen.aborted) yield context.task.completed();
    });
    const created = taskOf(
      await server.sendMessage(
        { message: userMessage('x'), configuration: { returnImmediately: true } },
        {},
      ),
    );
    const canceled = await server.cancelTask({ id: created.id }, {});
    release();
    await server.idle();
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(A2AError);
  });

  it('[63] answers a blocking send once the task asks for input, while the agent still runs', async () => {
    let finished = false;
    const { server } = counting(async function* ({ task }) {
      yield task.working();
      yield task.inputRequired('which one?');
      await new Promise((r) => setTimeout(r, 20));
      finished = true;
    });
    const reply = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    expect(reply.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(finished).toBe(false);
    await server.idle();
    expect(finished).toBe(true);
  });

  it('[109] records the events an agent yields in one burst with one append, in order', async () => {
    const store = new MemoryTaskStore();
    const appends: number[] = [];
    const append = store.append.bind(store);
    store.append = (scope, taskId, events, expectedSeq, options) => {
      appends.push(events.length);
      return append(scope, taskId, events, expectedSeq, options);
    };
    const agent = createAgent({
      card: { name: 'T', description: 'test', version: '1', skills },
      async *execute({ task }) {
        yield task.working();
        yield task.artifact('a', { artifactId: 'x' });
        yield task.artifact('b', { artifactId: 'x', append: true });
        await new Promise((r) => setTimeout(r, 5)); // real I/O: what came before is recorded
        yield task.completed();
      },
    });
    const server = new A2AServer({ agent, store, logger: null });
    const reply = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    expect(appends).toEqual([3, 1]);
    expect(reply.status.state).toBe('TASK_STATE_COMPLETED');
    expect(reply.artifacts?.[0]?.parts.map((p) => ('text' in p ? p.text : ''))).toEqual(['a', 'b']);
    const log = await store.events({ tenant: '', owner: '' }, reply.id, 0);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('records the events before an invalid one, then fails the task', async () => {
    const { server } = counting(async function* ({ task }) {
      yield task.working();
      yield task.artifact('kept');
      yield task.submitted(); // WORKING → SUBMITTED is not a transition an agent may make
      yield task.completed();
    });
    const reply = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    expect(reply.status.state).toBe('TASK_STATE_FAILED');
    expect(reply.artifacts?.length).toBe(1);
  });

  it('leases the tasks of a given memory store only when ownership is asked for', async () => {
    const agent = createAgent({
      card: { name: 'T', description: 'test', version: '1', skills },
      execute: echo,
    });
    const plain = new A2AServer({ agent, store: new MemoryTaskStore(), logger: null });
    const shared = new A2AServer({
      agent,
      store: new MemoryTaskStore(),
      logger: null,
      ownership: {},
    });
    expect(plain.ownership).toBeUndefined();
    expect(shared.ownership).toBeDefined();
    await shared.close();
    await plain.close();
  });

  it('fails the task without leaking the error when the agent throws', async () => {
    const { server } = counting(async function* ({ task }) {
      yield task.working();
      throw new Error('database password is hunter2');
    });
    const task = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(task.status.message)).not.toContain('hunter2');
    expect(textOf(task.status.message)).toMatch(/agent failed/);
  });

  it('fails the task when the agent ends without a final state', async () => {
    const { server } = counting(async function* ({ task }) {
      yield task.working();
    });
    const task = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
  });

  it('[81] ignores what an agent yields after a terminal state', async () => {
    const { server } = counting(async function* ({ task }) {
      yield task.completed();
      yield task.working();
    });
    const task = taskOf(await server.sendMessage({ message: userMessage('x') }, {}));
    await server.idle();
    expect((await server.getTask({ id: task.id }, {})).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('[62] refuses parts whose media type the agent does not accept', async () => {
    const { server, runs } = counting(echo, { defaultInputModes: ['application/json'] });
    const error = await server
      .sendMessage({ message: userMessage('plain text') }, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    expect(runs()).toBe(0);
  });

  it('[127,235] activates requested extensions and requires the required ones', async () => {
    const uri = 'https://example.com/ext/v1';
    const { server } = counting(echo, { capabilities: { extensions: [{ uri, required: true }] } });
    await expect(server.sendMessage({ message: userMessage('x') }, {})).rejects.toMatchObject({
      code: 'EXTENSION_SUPPORT_REQUIRED',
    });
    const call = { requestedExtensions: [uri, 'https://other/v1'] };
    await server.sendMessage({ message: userMessage('x') }, call);
    expect(call).toMatchObject({ activatedExtensions: [uri] });
  });

  it('[110,111] gives every subscriber the same events in the same order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server } = counting(async function* ({ task }) {
      yield task.working();
      await gate;
      for (let i = 0; i < 5; i++)
        yield task.artifact(`chunk ${i}`, { artifactId: 'a', append: i > 0 });
      yield task.completed();
    });
    const task = taskOf(
      await server.sendMessage(
        { message: userMessage('x'), configuration: { returnImmediately: true } },
        {},
      ),
    );
    const streams = await Promise.all(
      [1, 2, 3].map(() => server.subscribeToTask({ id: task.id }, {})),
    );
    release();
    const [a, b, c] = await Promise.all(streams.map(collect));
    expect(a?.length).toBeGreaterThan(5);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('[109] lets a slow reader catch up from the log without unbounded buffering', async () => {
    const store = new MemoryTaskStore();
    const bus = new MemoryEventBus();
    const agent = createAgent({
      card: { name: 'T', description: 'test', version: '1', skills },
      async *execute({ task }) {
        yield task.working();
        for (let i = 0; i < 2000; i++)
          yield task.artifact(`${i},`, { artifactId: 'a', append: i > 0 });
        yield task.completed();
      },
    });
    const server = new A2AServer({ agent, store, bus });
    const stream = await server.sendStreamingMessage({ message: userMessage('x') }, {});
    const seen: number[] = [];
    for await (const item of stream) {
      seen.push(Number(item.id));
      if (seen.length % 100 === 0) await new Promise((r) => setTimeout(r, 1)); // slow reader
    }
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(seen.length).toBe(2003);
    expect(bus.activeTasks).toBe(0);
  });

  it('[122] resumes a stream after Last-Event-ID with exactly the missed events', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server } = counting(async function* ({ task }) {
      yield task.working();
      yield task.artifact('one', { artifactId: 'a' });
      await gate;
      yield task.artifact('two', { artifactId: 'a', append: true });
      yield task.completed();
    });
    const stream = await server.sendStreamingMessage({ message: userMessage('x') }, {});
    const first: string[] = [];
    let taskId = '';
    for await (const item of stream) {
      first.push(item.id ?? '');
      if ('task' in item.event) taskId = item.event.task.id;
      if (item.id === '3') break; // the client drops after the first artifact
    }
    release();
    await server.idle();
    const resumed = [];
    for await (const item of await server.subscribeToTask({ id: taskId, lastEventId: '3' }, {}))
      resumed.push(item.id);
    expect(first).toEqual(['1', '2', '3']);
    expect(resumed).toEqual(['4', '5']);
  });

  it('[82] resumes a paused task: the agent sees the task as it was, the stream sends every update', async () => {
    const seen: string[] = [];
    const { server } = counting(async function* ({ task, current }) {
      seen.push(current?.status.state ?? 'new');
      if (!current) {
        yield task.inputRequired('which date?');
        return;
      }
      yield task.working();
      yield task.artifact('booked');
      yield task.completed();
    });
    const paused = taskOf(await server.sendMessage({ message: userMessage('book') }, {}));
    const stream = await server.sendStreamingMessage(
      { message: userMessage('friday', { taskId: paused.id }) },
      {},
    );
    const events = await collect(stream);
    expect(seen).toEqual(['new', 'TASK_STATE_INPUT_REQUIRED']);
    const first = events[0];
    expect(first && 'task' in first && first.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(first && 'task' in first && first.task.history?.map((m) => textOf(m))).toEqual([
      'book',
      'which date?',
      'friday',
    ]);
    const kinds = events
      .slice(1)
      .map((e) => ('statusUpdate' in e ? e.statusUpdate.status.state : 'artifact'));
    expect(kinds).toEqual(['TASK_STATE_WORKING', 'artifact', 'TASK_STATE_COMPLETED']);
  });
});
