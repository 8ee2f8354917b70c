/** Every demo behaviour, in process through A2AServer (the HTTP bindings are tested elsewhere). */
import { timingExtension } from './timing-extension.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part, SendMessageRequest, StreamResponse, Task, TaskState } from '../index.js';
import {
  A2AServer,
  dataPart,
  textOf,
  textPart,
  userMessage,
  type Agent,
  type CallContext,
  type StreamItem,
} from '../server/index.js';
import { createDemoAgent, demoAgent, demoCard } from './agent.js';
import { FAIL_DETAIL, storyChunks } from './behaviours.js';
import { DATE_QUESTION, type Booking } from './book.js';

const call: CallContext = {};
const servers: A2AServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.idle();
    await server.close();
  }
});

function newServer(agent: Agent = demoAgent): A2AServer {
  const server = new A2AServer({ agent, logger: null });
  servers.push(server);
  return server;
}

function request(content: string | Part[], ids: { taskId?: string } = {}): SendMessageRequest {
  return { message: userMessage(content, ids) };
}

async function send(server: A2AServer, content: string | Part[], ids: { taskId?: string } = {}) {
  const result = await server.sendMessage(request(content, ids), call);
  if (!('task' in result) || !result.task) throw new Error('expected a task, got a message');
  return result.task;
}

async function stream(server: A2AServer, content: string | Part[], ids: { taskId?: string } = {}) {
  const items: StreamItem[] = [];
  for await (const item of await server.sendStreamingMessage(request(content, ids), call)) {
    items.push(item);
  }
  return items.map((i) => i.event);
}

/** The states of the status updates of a stream, in order. */
function states(events: StreamResponse[]): TaskState[] {
  return events.flatMap((e) => ('statusUpdate' in e ? [e.statusUpdate.status.state] : []));
}

function artifactUpdates(events: StreamResponse[]) {
  return events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
}

function statusText(task: Task): string {
  return textOf(task.status.message);
}

describe('demo agent card', () => {
  it('advertises one skill per behaviour, streaming and the extended card', () => {
    const card = newServer().agentCard([
      {
        url: 'http://127.0.0.1:8765/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
    ]);
    expect(card.skills.map((s) => s.id)).toEqual([
      'echo',
      'greet',
      'book',
      'story',
      'slow',
      'reject',
      'fail',
      'auth',
    ]);
    // pushNotifications follows the server's push option (startDemo sets one; main.test.ts)
    expect(card.capabilities).toEqual({
      streaming: true,
      extendedAgentCard: true,
      extensions: [timingExtension],
      pushNotifications: false,
    });
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
    for (const skill of demoCard.skills) {
      expect(skill.description.length).toBeGreaterThan(20);
      expect(skill.tags.length).toBeGreaterThan(0);
      expect(skill.examples.length).toBeGreaterThan(0);
    }
  });
});

describe('echo', () => {
  it('streams WORKING, one "You said" artifact, COMPLETED', async () => {
    const events = await stream(newServer(), 'echo hello world');
    expect(events[0]).toHaveProperty('task');
    expect(states(events)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    const artifacts = artifactUpdates(events);
    expect(artifacts).toHaveLength(1);
    expect(textOf(artifacts[0]?.artifact)).toBe('You said: hello world');
  });

  it('echoes text that is not a command, whole', async () => {
    const task = await send(newServer(), 'What is A2A?');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.artifacts?.[0])).toBe('You said: What is A2A?');
  });

  it('treats names of object members as plain text', async () => {
    const task = await send(newServer(), 'constructor toString');
    expect(textOf(task.artifacts?.[0])).toBe('You said: constructor toString');
  });

  it('echoes a data part without a command as JSON', async () => {
    const task = await send(newServer(), [dataPart({ x: 1 })]);
    expect(textOf(task.artifacts?.[0])).toBe('You said: {"x":1}');
  });
});

describe('hi / hello', () => {
  it.each(['hi', 'Hello there'])(
    'answers "%s" with a message and creates no task',
    async (text) => {
      const server = newServer();
      const result = await server.sendMessage(request(text), call);
      expect('message' in result).toBe(true);
      if (!('message' in result) || !result.message) return;
      expect(result.message.role).toBe('ROLE_AGENT');
      expect(result.message.taskId).toBeUndefined();
      expect(textOf(result.message)).toContain('demo agent');
      expect((await server.listTasks({}, call)).totalSize).toBe(0);
    },
  );

  it('streams the reply as a single message event', async () => {
    const events = await stream(newServer(), 'hello');
    expect(events).toHaveLength(1);
    expect(events[0]).toHaveProperty('message');
  });
});

describe('commands in a data part', () => {
  it('reads {"command": "story 2"} like the text "story 2"', async () => {
    const events = await stream(newServer(), [dataPart({ command: 'story 2' })]);
    expect(artifactUpdates(events)).toHaveLength(2);
    expect(states(events).at(-1)).toBe('TASK_STATE_COMPLETED');
  });
});

describe('book (multi-turn)', () => {
  async function startBooking(server: A2AServer) {
    const events = await stream(server, 'book');
    expect(states(events)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
    const first = events[0];
    if (!first || !('task' in first)) throw new Error('the stream must start with the task');
    const task = await server.getTask({ id: first.task.id }, call);
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message?.role).toBe('ROLE_AGENT');
    expect(statusText(task)).toBe(DATE_QUESTION);
    expect(statusText(task)).toContain('Which date?');
    return task;
  }

  function confirmation(task: Task) {
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    const parts = task.artifacts?.[0]?.parts ?? [];
    expect(parts).toHaveLength(2);
    return { data: parts[0]?.data as Booking, text: parts[1]?.text };
  }

  it('asks which date, then completes with a text answer', async () => {
    const server = newServer();
    const asked = await startBooking(server);
    const done = await send(server, 'On 2026-12-24 please', { taskId: asked.id });
    const { data, text } = confirmation(done);
    expect(data).toEqual({
      bookingId: expect.stringMatching(/^BK-/),
      date: '2026-12-24',
      status: 'confirmed',
    });
    expect(text).toContain('2026-12-24');
    expect(done.contextId).toBe(asked.contextId);
  });

  it('completes with a data-part answer over a stream', async () => {
    const server = newServer();
    const asked = await startBooking(server);
    const events = await stream(server, [dataPart({ date: '2026-12-24' })], { taskId: asked.id });
    // A resumed stream starts with the task snapshot, which may already include early updates.
    expect(events[0]).toHaveProperty('task');
    expect(states(events).at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(confirmation(await server.getTask({ id: asked.id }, call)).data.date).toBe('2026-12-24');
  });

  it.each([['next Friday'], ['2026-02-30']])(
    'asks again after the invalid answer "%s"',
    async (answer) => {
      const server = newServer();
      const asked = await startBooking(server);
      const again = await send(server, answer, { taskId: asked.id });
      expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(statusText(again)).toContain('Which date?');
      const done = await send(server, [dataPart({ date: '2027-01-02' })], { taskId: asked.id });
      expect(confirmation(done).data.date).toBe('2027-01-02');
    },
  );

  it('sends only the text part when the client accepts only text/plain', async () => {
    const server = newServer();
    const asked = await startBooking(server);
    const result = await server.sendMessage(
      {
        message: userMessage([textPart('2026-12-24')], { taskId: asked.id }),
        configuration: { acceptedOutputModes: ['text/plain'] },
      },
      call,
    );
    const parts = ('task' in result && result.task?.artifacts?.[0]?.parts) || [];
    expect(parts.map((p) => Object.keys(p).filter((k) => k !== 'mediaType'))).toEqual([['text']]);
  });
});

describe('story', () => {
  it('streams one artifact in n chunks with append and lastChunk', async () => {
    const server = newServer();
    const events = await stream(server, 'story 3');
    expect(states(events)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    const chunks = artifactUpdates(events);
    expect(chunks).toHaveLength(3);
    expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    expect(chunks.map((c) => [c.append ?? false, c.lastChunk ?? false])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
    const assembled = chunks.map((c) => textOf(c.artifact)).join('');
    expect(assembled).toBe(storyChunks(3).join(''));
    expect(assembled).toMatch(/^Once upon a time/);

    const first = events[0];
    const id = first && 'task' in first ? first.task.id : '';
    const task = await server.getTask({ id }, call);
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts?.[0]?.parts.map((p) => p.text).join('')).toBe(assembled);
  });

  it('sends 20 chunks by default, about 50 ms apart', async () => {
    const started = Date.now();
    const chunks = artifactUpdates(await stream(newServer(), 'story'));
    expect(chunks).toHaveLength(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19 * 45);
  });
});

describe('slow', () => {
  it('reports progress every tick, then completes', async () => {
    const events = await stream(newServer(createDemoAgent({ tickMs: 5 })), 'slow 3');
    const progress = events.flatMap((e) =>
      'statusUpdate' in e ? [textOf(e.statusUpdate.status.message)] : [],
    );
    expect(states(events)).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(progress.slice(1, 4)).toEqual([
      'Working... 1/3 s',
      'Working... 2/3 s',
      'Working... 3/3 s',
    ]);
    expect(artifactUpdates(events)).toHaveLength(1);
  });

  it('stops promptly when canceled and ends CANCELED', async () => {
    const server = newServer();
    const created = await server.sendMessage(
      { ...request('slow 5'), configuration: { returnImmediately: true } },
      call,
    );
    const id = 'task' in created && created.task ? created.task.id : '';
    const started = Date.now();
    const canceled = await server.cancelTask({ id }, call);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await server.idle(); // the agent itself has stopped, not just the record
    expect(Date.now() - started).toBeLessThan(500);
    const task = await server.getTask({ id }, call);
    expect(task.status.state).toBe('TASK_STATE_CANCELED');
    expect(task.artifacts).toBeUndefined();
  });
});

describe('reject, fail and auth', () => {
  it('rejects with a reason', async () => {
    const task = await send(newServer(), 'reject');
    expect(task.status.state).toBe('TASK_STATE_REJECTED');
    expect(task.status.message?.role).toBe('ROLE_AGENT');
    expect(statusText(task)).toContain('refuse');
  });

  it('fails with a status message that does not leak the internal error', async () => {
    const task = await send(newServer(), 'fail');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message?.role).toBe('ROLE_AGENT');
    expect(statusText(task).length).toBeGreaterThan(0);
    expect(statusText(task)).not.toContain(FAIL_DETAIL);
    expect(JSON.stringify(task)).not.toContain('10.0.0.7');
  });

  it('pauses in AUTH_REQUIRED saying what is needed; a follow-up completes it', async () => {
    const server = newServer();
    const events = await stream(server, 'auth');
    expect(states(events)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_AUTH_REQUIRED']);
    const first = events[0];
    const id = first && 'task' in first ? first.task.id : '';
    const paused = await server.getTask({ id }, call);
    expect(statusText(paused)).toContain('Authorization required');
    const done = await send(server, 'here you go', { taskId: id });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(done.artifacts?.[0])).toContain('Authorized');
    expect(textOf(done.artifacts?.[0])).toContain('Bearer demo-token');
  });

  it('whoami names the caller, or says it is anonymous', async () => {
    const server = newServer();
    const reply = async (callContext: CallContext) => {
      const result = await server.sendMessage(request('whoami'), callContext);
      return 'message' in result ? textOf(result.message) : 'a task';
    };
    expect(await reply({})).toContain('You are anonymous');
    expect(await reply({ principal: { id: 'demo-user' } })).toBe('You are demo-user.');
  });
});
