/**
 * Abandoned tasks (spec §3.1: INPUT_REQUIRED and AUTH_REQUIRED wait for the client): they are
 * CANCELED with a status message once idle for `interrupted.ttlMs`, driven by the store's state
 * (so across restarts), written once when several instances sweep, and one caller may hold at
 * most `interrupted.maxPerCaller` of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { textOf, userMessage } from '../core/parts.js';
import type { Task } from '../core/schemas/index.js';
import type { CallContext } from '../core/call-context.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import type { TaskStore } from '../stores/types.js';
import { createAgent } from './agent.js';
import { A2AServer, type A2AServerOptions } from './a2a-server.js';
import { expiredText } from './interrupted.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-interrupted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const skills = [{ id: 's', name: 'S', description: 'd', tags: ['t'] }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks for input on a new task ("auth" in the text: for authorization); completes an answer. */
const agent = createAgent({
  card: { name: 'T', description: 'test', version: '1', skills },
  async *execute({ message, task, current }) {
    if (current) {
      yield task.completed('thanks');
      return;
    }
    yield textOf(message) === 'auth' ? task.authRequired('sign in') : task.inputRequired('which?');
  },
});

const alice: CallContext = { principal: { id: 'alice' } };
const bob: CallContext = { principal: { id: 'bob' } };

function server(options: Partial<A2AServerOptions>): A2AServer {
  return new A2AServer({ agent, logger: null, ...options });
}

async function open(s: A2AServer, call: CallContext, text = 'x'): Promise<Task> {
  const reply = await s.sendMessage({ message: userMessage(text) }, call);
  if (!('task' in reply)) throw new Error('expected a task');
  return reply.task;
}

/** Counts the store's reads of a caller's interrupted tasks (`held`). */
function countHeld(store: SqliteTaskStore): () => number {
  const leases = store.leaseStore();
  let counts = 0;
  const held = leases.held.bind(leases);
  leases.held = (scope) => {
    counts++;
    return held(scope);
  };
  return () => counts;
}

/** Polls GetTask until the task is CANCELED (the test times out otherwise). */
async function canceled(s: A2AServer, call: CallContext, id: string): Promise<Task> {
  for (;;) {
    const task = await s.getTask({ id }, call);
    if (task.status.state === 'TASK_STATE_CANCELED') return task;
    await sleep(10);
  }
}

describe('expiry of interrupted tasks', () => {
  it('cancels INPUT_REQUIRED and AUTH_REQUIRED tasks idle for ttlMs, saying why', async () => {
    const s = server({ interrupted: { ttlMs: 50 } });
    const input = await open(s, alice);
    const auth = await open(s, alice, 'auth');
    expect(input.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(auth.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    for (const id of [input.id, auth.id]) {
      const task = await canceled(s, alice, id);
      expect(textOf(task.status.message)).toBe(
        'Canceled: no answer within 50 ms (A2AServer option interrupted.ttlMs)',
      );
    }
    await s.close();
  });

  it('names the default TTL in hours', () => {
    expect(expiredText(24 * 3_600_000)).toBe(
      'Canceled: no answer within 24 h (A2AServer option interrupted.ttlMs)',
    );
  });

  it('leaves a task alone while it is younger than ttlMs and once it is answered', async () => {
    const s = server({ interrupted: { ttlMs: 3_600_000 } });
    const waiting = await open(s, alice);
    await s.interrupted?.sweep();
    expect((await s.getTask({ id: waiting.id }, alice)).status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
    const answered = await s.sendMessage(
      { message: userMessage('this one', { taskId: waiting.id }) },
      alice,
    );
    expect('task' in answered && answered.task.status.state).toBe('TASK_STATE_COMPLETED');
    await s.close();
  });

  it('expires a task left by an earlier process: the store’s state drives it (SQLite file)', async () => {
    const path = join(dir, 'restart.db');
    const first = server({ store: new SqliteTaskStore({ path }) });
    const task = await open(first, alice);
    await first.idle();
    await first.close();

    const second = server({ store: new SqliteTaskStore({ path }), interrupted: { ttlMs: 40 } });
    const expired = await canceled(second, alice, task.id);
    expect(textOf(expired.status.message)).toContain('interrupted.ttlMs');
    await second.close();
  });

  it('writes one cancel when several instances sharing a store sweep at once', async () => {
    const store: TaskStore = new MemoryTaskStore();
    const options = { store, ownership: false as const, interrupted: { ttlMs: 20 } };
    const instances = [server(options), server(options), server(options)];
    const task = await open(instances[0]!, alice);
    await sleep(40);
    await Promise.all(instances.map((i) => i.interrupted?.sweep() ?? Promise.resolve()));
    await canceled(instances[1]!, alice, task.id);
    const record = await store.get({ tenant: '', owner: 'alice' }, task.id);
    const log = await store.events({ tenant: '', owner: 'alice' }, task.id, 0);
    const cancels = log.filter(
      (e) =>
        'statusUpdate' in e.event && e.event.statusUpdate.status.state === 'TASK_STATE_CANCELED',
    );
    expect(cancels).toHaveLength(1);
    expect(record?.task.status.state).toBe('TASK_STATE_CANCELED');
    for (const i of instances) await i.close();
  });
});

describe('per-caller cap on interrupted tasks', () => {
  it('refuses a new task past maxPerCaller with RATE_LIMITED; answers and other callers go on', async () => {
    const s = server({ interrupted: { maxPerCaller: 2 } });
    const first = await open(s, alice);
    await open(s, alice, 'auth');
    const refused = await s.sendMessage({ message: userMessage('third') }, alice).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).code).toBe('RATE_LIMITED');
    expect((refused as A2AError).message).toContain('interrupted.maxPerCaller');
    expect((refused as A2AError).metadata).toEqual({ interrupted: '2', maxPerCaller: '2' });
    expect((await open(s, bob)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // Answering an open task is never refused, and frees a place.
    await s.sendMessage({ message: userMessage('this', { taskId: first.id }) }, alice);
    expect((await open(s, alice)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await s.close();
  });

  it('counts per tenant too', async () => {
    const s = server({ interrupted: { maxPerCaller: 1 } });
    await open(s, { ...alice, tenant: 'a' });
    expect((await open(s, { ...alice, tenant: 'b' })).status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
    await expect(open(s, { ...alice, tenant: 'a' })).rejects.toThrow(/maxPerCaller/);
    await s.close();
  });

  it('reads the count from the store once per caller while far from the cap, then per send near it', async () => {
    const store = new MemoryTaskStore();
    let counts = 0;
    const list = store.list.bind(store);
    store.list = (scope, query) => {
      if (query.status !== undefined) counts++;
      return list(scope, query);
    };
    const s = server({ store, interrupted: { maxPerCaller: 5 } });
    for (let i = 0; i < 5; i++) await open(s, alice);
    expect(counts).toBe(2); // one count (of two states) for five sends: 0 held + 5 started
    // A sixth could pass the cap: counted afresh (5 held), refused on that count.
    await expect(open(s, alice)).rejects.toThrow(/maxPerCaller/);
    expect(counts).toBe(4);
    await expect(open(s, alice)).rejects.toThrow(/maxPerCaller/);
    expect(counts).toBe(6);
    await s.close();
  });

  it('counts once per caller on a SQLite file only this store writes, afresh once another connection wrote', async () => {
    const path = join(dir, 'cap-version.db');
    const store = new SqliteTaskStore({ path });
    const counts = countHeld(store);
    const s = server({ store, interrupted: { maxPerCaller: 4 } });
    await open(s, alice);
    await open(s, alice);
    expect(counts()).toBe(1); // one count for both: 0 held + 2 started, far from 4
    // Another connection to the file (another process, in effect) opens two interrupted tasks
    // for alice: the next send reads the count again, sees 4, and is refused.
    const other = new SqliteTaskStore({ path });
    const elsewhere = server({ store: other, interrupted: { maxPerCaller: 100 } });
    await open(elsewhere, alice);
    await open(elsewhere, alice);
    await expect(open(s, alice)).rejects.toThrow(/maxPerCaller/);
    expect(counts()).toBe(2);
    await elsewhere.close();
    await other.close();
    await s.close();
    await store.close();
  });

  it('counts on every new task on a SQLite connection the store was given (others may write through it)', async () => {
    const owner = new SqliteTaskStore({ path: join(dir, 'cap-given.db') });
    const store = new SqliteTaskStore({ database: owner.db });
    expect(store.leaseStore().version).toBeUndefined();
    expect(owner.leaseStore().version).toBeTypeOf('function');
    const counts = countHeld(store);
    const s = server({ store, interrupted: { maxPerCaller: 3 } });
    // A second store on the same connection: its tasks move no data_version.
    const beside = server({ store: owner, interrupted: { maxPerCaller: 100 } });
    await open(s, alice);
    await open(beside, alice);
    await open(beside, alice);
    await expect(open(s, alice)).rejects.toThrow(/maxPerCaller/);
    expect(counts()).toBe(2);
    await s.close();
    await beside.close();
    await store.close();
    await owner.close();
  });

  it('is off with `interrupted: false`, and refuses nonsense options', async () => {
    const s = server({ interrupted: false });
    expect(s.interrupted).toBeUndefined();
    await s.close();
    expect(() => server({ interrupted: { ttlMs: 0 } })).toThrow(/interrupted.ttlMs/);
    expect(() => server({ interrupted: { maxPerCaller: -1 } })).toThrow(/maxPerCaller/);
  });
});
