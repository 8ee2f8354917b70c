/**
 * What retried sends cost and what the message index keeps for them (intake.ts,
 * fingerprint.ts, sent-messages.ts): a message with a fresh messageId is never canonicalized nor
 * hashed (the canonical writer and the hash are counted here), and a retry is recognized from the
 * task's history however the store holds it (live, packed, SQLite across a restart), for a new
 * task, an answer to a paused one, every form of taskId and contextId, messageIds reused for
 * other content (attempts under way, stateless replies) and index rows of earlier versions (a
 * fingerprint).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { Message } from '../core/schemas/index.js';
import type * as Canonical from '../security/audit-canonical.js';
import type * as Sha256 from '../security/sha256.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { LiveTask } from '../stores/memory/task-entry.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { createAgent, type Agent } from './agent.js';
import { messageFingerprint } from './fingerprint.js';
import { MessageIntake, type IdempotencyOptions } from './intake.js';
import { TaskLog } from './task-log.js';
import { TaskRunner, type StartResult } from './task-runner.js';

const counts = vi.hoisted(() => ({ canonical: 0, hash: 0 }));

vi.mock('../security/audit-canonical.js', async (original) => {
  const actual = await original<typeof Canonical>();
  return {
    ...actual,
    canonicalMessage: (message: unknown) => {
      counts.canonical++;
      return actual.canonicalMessage(message);
    },
  };
});
vi.mock('../security/sha256.js', async (original) => {
  const actual = await original<typeof Sha256>();
  return {
    ...actual,
    sha256Base64Url: (text: string) => {
      counts.hash++;
      return actual.sha256Base64Url(text);
    },
  };
});

const scope: Scope = { tenant: '', owner: 'alice' };
const card = {
  name: 'T',
  description: 'test',
  version: '1',
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
};
const dir = mkdtempSync(join(tmpdir(), 'a2a-retries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  counts.canonical = 0;
  counts.hash = 0;
});

/**
 * An agent that records the text of every message it runs for: `reply…` answers a stateless
 * Message, `ask…` pauses for input, anything else completes (after `hold()`'s gate).
 */
function recordingAgent() {
  const seen: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const agent: Agent = createAgent({
    card,
    async *execute({ message, task }) {
      const said = textOf(message);
      seen.push(said);
      if (said.startsWith('reply')) {
        yield task.reply(`re: ${said}`);
        return;
      }
      yield task.working();
      await gate;
      if (said.startsWith('ask')) yield task.inputRequired('more?');
      else yield task.completed();
    },
  });
  const hold = () => {
    gate = new Promise((resolve) => (release = resolve));
  };
  return { agent, seen, hold, release: () => release() };
}

function intake(
  store: TaskStore = new MemoryTaskStore(),
  idempotency: IdempotencyOptions = { windowMs: 60_000 },
) {
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
  const send = (message: Message): Promise<StartResult> =>
    Promise.resolve().then(() => target.startOrAttach({ message }, {}, scope));
  return { ...recorded, store, runner, send };
}

const taskIdOf = (result: StartResult) => ('taskId' in result ? result.taskId : undefined);

describe('a fresh messageId costs no canonical form and no hash', () => {
  for (const [name, open] of [
    ['memory', () => new MemoryTaskStore()],
    ['SQLite', () => new SqliteTaskStore({ path: join(dir, 'fresh.db') })],
  ] as const) {
    it(`new tasks, answers and stateless replies (${name}, window 0 and 60 s)`, async () => {
      for (const windowMs of [0, 60_000]) {
        const { send, runner, store, hold, release } = intake(open(), { windowMs });
        const asked = await send(userMessage('ask once'));
        await runner.idle();
        await send({ ...userMessage('answer'), taskId: taskIdOf(asked) });
        for (let i = 0; i < 5; i++) await send(userMessage(`task ${i}`));
        // A stateless reply keeps its fingerprint only when a window makes it last.
        if (windowMs === 0) await send(userMessage('reply now'));
        await runner.idle();
        expect(counts).toEqual({ canonical: 0, hash: 0 });
        // A retry (its first attempt still runs) compares two canonical texts, hashes nothing.
        hold();
        const again = userMessage('again');
        await send(again);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await send(again);
        expect(counts).toEqual({ canonical: 2, hash: 0 });
        release();
        await runner.idle();
        await store.close();
        counts.canonical = 0;
      }
    });
  }
});

describe('retries recognized from the task history', () => {
  it('a retry of a task whose history was packed, within the window', async () => {
    const { send, seen, store, runner } = intake(new MemoryTaskStore(), { windowMs: 60_000 });
    const first = userMessage('packed later');
    const created = taskIdOf(await send(first)) as string;
    await runner.idle();
    // 256 more finished tasks pack the first one (memory/task-store.ts KEEP_UNPACKED).
    for (let i = 0; i < 300; i++) await send(userMessage(`filler ${i}`));
    await runner.idle();
    const entry = (store as unknown as { tasks: Map<string, { body: unknown }> }).tasks.get(
      created,
    );
    expect(entry?.body).not.toBeInstanceOf(LiveTask);
    expect(taskIdOf(await send({ ...first }))).toBe(created);
    // Another message under the same messageId is not one.
    expect(taskIdOf(await send({ ...first, parts: [{ text: 'other' }] }))).not.toBe(created);
    await runner.idle();
    expect(seen.filter((s) => s === 'packed later')).toHaveLength(1);
  });

  it('window 0: a retry joins its running first attempt, whatever its ids; after, it runs again', async () => {
    const { send, seen, hold, release, runner } = intake(new MemoryTaskStore(), { windowMs: 0 });
    hold();
    const forms: Message[] = [
      userMessage('plain'),
      { ...userMessage('empty ids'), taskId: '', contextId: '' },
      { ...userMessage('own context'), contextId: 'ctx-mine' },
      { ...userMessage('undefined ids'), taskId: undefined, contextId: undefined },
    ];
    const firsts = await Promise.all(forms.map(send));
    // Let each first attempt register (not the concurrent-copy path: the index's).
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const [i, form] of forms.entries()) {
      const again = await send(JSON.parse(JSON.stringify(form)) as Message);
      expect(taskIdOf(again)).toBe(taskIdOf(firsts[i] as StartResult));
      // The same text with another form of the ids is another message.
      const other = { ...form, contextId: 'ctx-other' };
      expect(taskIdOf(await send(other))).not.toBe(taskIdOf(firsts[i] as StartResult));
    }
    release();
    await runner.idle();
    expect(taskIdOf(await send(forms[0] as Message))).not.toBe(taskIdOf(firsts[0] as StartResult));
    await runner.idle();
    expect(seen.filter((s) => s === 'plain')).toHaveLength(3);
  });

  it('a retried answer to a paused task gets the task again; the agent does not run twice', async () => {
    const { send, seen, hold, release, runner } = intake(new MemoryTaskStore(), { windowMs: 0 });
    const taskId = taskIdOf(await send(userMessage('ask first'))) as string;
    await runner.idle();
    hold();
    for (const answer of [
      { ...userMessage('ask: an answer'), taskId },
      { ...userMessage('ask: an answer with empty context'), taskId, contextId: '' },
    ]) {
      const first = await send(answer);
      expect(taskIdOf(await send({ ...answer }))).toBe(taskId);
      expect(first).toMatchObject({ created: false });
      release();
      await runner.idle();
      hold();
      // Paused again: the same answer once the first settled is processed (window 0).
    }
    release();
    await runner.idle();
    expect(seen).toEqual(['ask first', 'ask: an answer', 'ask: an answer with empty context']);
  });

  it('an answer reusing the messageId of the task’s last message is indexed by fingerprint', async () => {
    const { send, hold, release, runner, store } = intake(new MemoryTaskStore(), {
      windowMs: 0,
    });
    const asked = userMessage('ask and wait');
    const taskId = taskIdOf(await send(asked)) as string;
    await runner.idle();
    hold();
    // Same messageId as the history's last entry (the agent's question): the history keeps one.
    const question = (await store.get(scope, taskId))?.task.history?.at(-1);
    expect(question?.role).toBe('ROLE_AGENT');
    const answer = {
      ...userMessage('same id, an answer'),
      messageId: question?.messageId as string,
      taskId,
    };
    await send(answer);
    const known = await store.findByMessageId(scope, answer.messageId);
    expect(known?.fingerprint).toBe(messageFingerprint(answer));
    expect(taskIdOf(await send({ ...answer }))).toBe(taskId);
    release();
    await runner.idle();
  });

  it('rows of earlier versions (a fingerprint) are compared by fingerprint', async () => {
    const { send, store, runner, seen } = intake(new MemoryTaskStore(), { windowMs: 60_000 });
    const message = userMessage('indexed before');
    const task = {
      id: 't-old',
      contextId: 'c-old',
      status: { state: 'TASK_STATE_COMPLETED' as const },
      history: [{ ...message, taskId: 't-old', contextId: 'c-old' }],
    };
    await store.create(scope, task, {
      messageId: message.messageId,
      fingerprint: messageFingerprint(message),
    });
    expect(taskIdOf(await send({ ...message }))).toBe('t-old');
    expect(taskIdOf(await send({ ...message, metadata: { x: 1 } }))).not.toBe('t-old');
    await runner.idle();
    expect(seen).toEqual(['indexed before']);
  });

  it('SQLite: a retry after a restart, of a task and of an answer, within the window', async () => {
    const path = join(dir, 'restart.db');
    const first = intake(new SqliteTaskStore({ path }));
    const asked = { ...userMessage('ask durable'), contextId: 'ctx-durable' };
    const taskId = taskIdOf(await first.send(asked)) as string;
    await first.runner.idle();
    const answer = { ...userMessage('durable answer'), taskId, contextId: '' };
    await first.send(answer);
    await first.runner.idle();
    await first.store.close();

    const second = intake(new SqliteTaskStore({ path }));
    expect(taskIdOf(await second.send(JSON.parse(JSON.stringify(asked)) as Message))).toBe(taskId);
    expect(taskIdOf(await second.send({ ...answer }))).toBe(taskId);
    await second.runner.idle();
    expect(second.seen).toEqual([]);
    await second.store.close();
  });
});

describe('messageIds reused for other content', () => {
  it('concurrent copies of two messages under one messageId share two attempts', async () => {
    const { send, seen, hold, release, runner } = intake();
    hold();
    const a = userMessage('version a');
    const b = { ...a, parts: [{ text: 'version b' }] };
    const results = await Promise.all([send(a), send(b), send({ ...a }), send({ ...b })]);
    const [ra, rb, ra2, rb2] = results.map(taskIdOf);
    expect(ra2).toBe(ra);
    expect(rb2).toBe(rb);
    expect(rb).not.toBe(ra);
    release();
    await runner.idle();
    expect(seen).toEqual(['version a', 'version b']);
  });

  it('stateless replies of two messages under one messageId each answer their retries', async () => {
    for (const windowMs of [0, 60_000]) {
      const { send, seen } = intake(new MemoryTaskStore(), { windowMs });
      const a = userMessage('reply a');
      const b = { ...a, parts: [{ text: 'reply b' }] };
      const [ra, rb] = [await send(a), await send(b)];
      // Within the window (window 0: the same millisecond, which a test cannot promise).
      if (windowMs > 0) {
        expect(await send({ ...a })).toEqual(ra);
        expect(await send({ ...b })).toEqual(rb);
        expect(seen).toEqual(['reply a', 'reply b']);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 3));
        await send({ ...a });
        expect(seen).toEqual(['reply a', 'reply b', 'reply a']);
      }
    }
  });
});
