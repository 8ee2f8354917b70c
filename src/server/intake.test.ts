/**
 * Unit tests of the message intake (intake.ts): what is a retry (spec §3.3.1: messageId MAY be
 * used to detect duplicate sends) and what is a new message, concurrent copies, the window, the
 * fingerprint, and retries across a restart on a durable store.
 */
import { createHash, hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { Message } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { createAgent, type Agent } from './agent.js';
import { A2AServer } from './a2a-server.js';
import { messageFingerprint, nativeSha256, portableSha256 } from './fingerprint.js';
import { MessageIntake, type IdempotencyOptions } from './intake.js';
import { TaskLog } from './task-log.js';
import { TaskRunner, type StartResult } from './task-runner.js';

const scope: Scope = { tenant: '', owner: 'alice' };
const skills = [{ id: 's', name: 'S', description: 'd', tags: ['t'] }];
const card = { name: 'T', description: 'test', version: '1', skills };
const dir = mkdtempSync(join(tmpdir(), 'a2a-intake-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agent that records every message it runs for and answers `You said: <text>`. */
function recordingAgent() {
  const seen: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const agent: Agent = createAgent({
    card,
    async *execute({ message, task }) {
      seen.push(textOf(message));
      if (textOf(message) === 'reply') {
        yield task.reply('a reply');
        return;
      }
      yield task.working();
      await gate;
      yield task.artifact(`You said: ${textOf(message)}`);
      yield task.completed();
    },
  });
  const hold = () => {
    gate = new Promise((resolve) => (release = resolve));
  };
  return { agent, seen, hold, release: () => release() };
}

function intake(idempotency: IdempotencyOptions | false = { windowMs: 60_000 }) {
  const store = new MemoryTaskStore();
  const recorded = recordingAgent();
  const runner = new TaskRunner({
    log: new TaskLog({ store, bus: new MemoryEventBus() }),
    agent: recorded.agent,
  });
  const target = new MessageIntake({
    store,
    runner,
    push: undefined,
    acceptedModes: ['text/plain'],
    idempotency,
    maxTaskBytes: 200_000,
  });
  // As a promise whichever way it answered (a refusal thrown at once becomes a rejection).
  const send = (message: Message, owner = scope.owner): Promise<StartResult> =>
    Promise.resolve().then(() => target.startOrAttach({ message }, {}, { tenant: '', owner }));
  return { ...recorded, store, runner, send };
}

const taskIdOf = (result: StartResult) => ('taskId' in result ? result.taskId : undefined);

describe('MessageIntake', () => {
  it('[68] attaches the same message again to the first task', async () => {
    const { send, seen, runner } = intake();
    const message = userMessage('hi');
    const first = await send(message);
    const again = await send(message);
    expect(taskIdOf(again)).toBe(taskIdOf(first));
    expect(again).toMatchObject({ created: false });
    await runner.idle();
    expect(seen).toEqual(['hi']);
  });

  it('[68] processes another message that reuses a messageId, and follows it for retries', async () => {
    const { send, seen, runner } = intake();
    const first = userMessage('first');
    const second = { ...first, parts: [{ text: 'second' }] };
    const a = await send(first);
    const b = await send(second);
    expect(taskIdOf(b)).not.toBe(taskIdOf(a));
    expect(taskIdOf(await send(second))).toBe(taskIdOf(b));
    await runner.idle();
    expect(seen).toEqual(['first', 'second']);
  });

  it('[68] shares one attempt between concurrent copies, not with a different message', async () => {
    const { send, seen, hold, release, runner } = intake();
    hold();
    const message = userMessage('slow');
    const copies = [send(message), send(message), send(message)];
    const other = send({ ...message, metadata: { different: true } });
    const ids = (await Promise.all(copies)).map(taskIdOf);
    expect(new Set(ids).size).toBe(1);
    expect(taskIdOf(await other)).not.toBe(ids[0]);
    release();
    await runner.idle();
    expect(seen).toEqual(['slow', 'slow']);
  });

  it('keeps callers apart: the same message from another caller is its own', async () => {
    const { send, runner } = intake();
    const message = userMessage('mine');
    const a = await send(message, 'alice');
    const b = await send(message, 'bob');
    expect(taskIdOf(b)).not.toBe(taskIdOf(a));
    await runner.idle();
  });

  it('processes the same message again once the window has passed', async () => {
    const { send, seen, runner } = intake({ windowMs: 30 });
    const message = userMessage('late');
    const first = await send(message);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(taskIdOf(await send(message))).not.toBe(taskIdOf(first));
    await runner.idle();
    expect(seen).toEqual(['late', 'late']);
  });

  it('with idempotency off, runs every message and indexes none', async () => {
    const { send, seen, runner, store } = intake(false);
    const message = userMessage('twice');
    await send(message);
    await send(message);
    await runner.idle();
    expect(seen).toEqual(['twice', 'twice']);
    expect(await store.findByMessageId(scope, message.messageId)).toBeUndefined();
  });

  it('answers a retried stateless reply from memory, within the window', async () => {
    const { send, seen } = intake();
    const message = userMessage('reply');
    const first = await send(message);
    expect(await send(message)).toEqual(first);
    expect(seen).toEqual(['reply']);
  });
});

describe('per-task bound', () => {
  it('refuses a message that would take a paused task past maxTaskBytes, saying so', async () => {
    const store = new MemoryTaskStore();
    const agent = createAgent({
      card,
      async *execute({ task }) {
        yield task.inputRequired('more?');
      },
    });
    const runner = new TaskRunner({
      log: new TaskLog({ store, bus: new MemoryEventBus() }),
      agent,
    });
    const target = new MessageIntake({
      store,
      runner,
      push: undefined,
      acceptedModes: ['text/plain'],
      idempotency: { windowMs: 60_000 },
      maxTaskBytes: 250_000,
    });
    const send = (message: Message) =>
      Promise.resolve().then(() => target.startOrAttach({ message }, {}, scope));
    const first = await send(userMessage('x'.repeat(100_000)));
    const taskId = taskIdOf(first) as string;
    await runner.idle();
    const more = (n: number) => ({ ...userMessage('y'.repeat(n)), taskId });
    await send(more(100_000)); // about 200 KB now
    await runner.idle();
    await expect(send(more(100_000))).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('past the limit of 250000 bytes') as unknown,
    });
    // A small answer still fits.
    expect(taskIdOf(await send(more(10)))).toBe(taskId);
    await runner.idle();
  });
});

describe('messageFingerprint', () => {
  it('is the start of the base64url SHA-256 of the RFC 8785 text (the values stores hold)', () => {
    const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'é' }] } as Message;
    const canonical = '{"messageId":"m","parts":[{"text":"é"}],"role":"ROLE_USER"}';
    const expected = createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
    expect(messageFingerprint(message)).toBe(expected);
    // The runtime's native hash (one-shot or not) and the pure-JS one (other runtimes) give
    // the same bytes.
    for (const text of [canonical, '', 'x'.repeat(1000), '\u{1F600} é']) {
      expect([...portableSha256(text)]).toEqual([...nativeSha256(text, { createHash })]);
      expect([...portableSha256(text)]).toEqual([...nativeSha256(text, { createHash, hash })]);
    }
  });

  it('is the same for one message in any key order, and differs for any other field', () => {
    const base = {
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ text: 'x' }],
      metadata: { a: 1, b: 2 },
    } as Message;
    const reordered = {
      metadata: { b: 2, a: 1 },
      parts: [{ text: 'x' }],
      role: 'ROLE_USER',
      messageId: 'm',
    } as Message;
    const fp = messageFingerprint(base);
    expect(fp).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(messageFingerprint(reordered)).toBe(fp);
    for (const other of [
      { ...base, parts: [{ text: 'y' }] },
      { ...base, taskId: 't' },
      { ...base, contextId: 'c' },
      { ...base, metadata: { a: 1 } },
      { ...base, referenceTaskIds: ['r'] },
    ] as Message[]) {
      expect(messageFingerprint(other)).not.toBe(fp);
    }
  });
});

describe('retries across a restart (SQLite file)', () => {
  it('[68] a retry after a restart gets the first task; another message is processed', async () => {
    const path = join(dir, 'restart.db');
    const recorded = recordingAgent();
    const open = (): TaskStore => new SqliteTaskStore({ path });
    const message = userMessage('durable');
    const first = new A2AServer({
      agent: recorded.agent,
      store: open(),
      logger: null,
      idempotency: { windowMs: 600_000 },
    });
    const before = await first.sendMessage({ message }, { principal: { id: 'alice' } });
    await first.idle();
    await first.close();

    const second = new A2AServer({
      agent: recorded.agent,
      store: open(),
      logger: null,
      idempotency: { windowMs: 600_000 },
    });
    const call = { principal: { id: 'alice' } };
    const retried = await second.sendMessage({ message }, call);
    expect('task' in retried && retried.task.id).toBe('task' in before && before.task.id);
    const other = await second.sendMessage(
      { message: { ...message, parts: [{ text: 'another' }] } },
      call,
    );
    expect('task' in other && other.task.artifacts?.[0]?.parts[0]?.text).toBe('You said: another');
    await second.idle();
    await second.close();
    expect(recorded.seen).toEqual(['durable', 'another']);
  });
});
