/**
 * The round trips of a blocking send on PostgreSQL (issue 16, point 4), counted on the real
 * database with synchronous commit on through the pool the store uses: an echo send whose
 * agent's events arrive together is two reads at once (the message index, the caller's
 * interrupted tasks) and one write that creates the task with all its events (one transaction:
 * every row carries the same `xmin`), with no lease for a task finished by that write and no
 * read for the answer. An agent that waits gets its lease in the creating write; concurrent
 * sends share their reads' statements and their writes' transactions; the audit chain links
 * every row of the write.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { A2AServer, createAgent, textOf } from '../../src/server/index.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { chainHash, GENESIS_HASH } from '../../src/security/audit-chain.js';
import type { Task } from '../../src/core/schemas/index.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);

/** Every query of the pool, by prepared statement name (`a2a_<name>_<hash>` → `<name>`). */
const calls: string[] = [];
function counted(pool: Pool): Pool {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    const first = args[0] as string | { name?: string; text: string };
    const name = typeof first === 'string' ? first : first.name;
    calls.push(name?.replace(/^a2a_(.*)_[0-9a-f]{8}$/, '$1') ?? 'unnamed');
    return query(...args);
  };
  return pool;
}

let release: (() => void) | undefined;
const agent = createAgent({
  card: {
    name: 'Echo',
    description: 'Echoes',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
  },
  async *execute({ message, task }) {
    yield task.working();
    if (textOf(message) === 'wait') await new Promise<void>((resolve) => (release = resolve));
    yield task.artifact(`echo: ${textOf(message)}`, { name: 'echo' });
    yield task.completed();
  },
});

const send = (server: A2AServer, text: string) =>
  server.sendMessage(
    { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    {},
  );

describePostgres('PostgreSQL round trips of a blocking send', () => {
  let store: PostgresTaskStore;
  let server: A2AServer;
  let other: Pool;

  beforeAll(async () => {
    store = await PostgresTaskStore.open({ pool: counted(db.pool()), schema, logger: null });
    server = new A2AServer({ agent, store, logger: null, audit: true });
    other = db.pool({ max: 1 });
  });
  afterAll(() => server.close());

  const rows = async (taskId: string) =>
    (
      await other.query<{ seq: number; xmin: string; hash: string | null }>(
        `SELECT seq, xmin::text AS xmin, hash FROM "${schema}".events WHERE task_id = $1
         ORDER BY seq`,
        [taskId],
      )
    ).rows;
  const taskRow = async (taskId: string) =>
    (
      await other.query<{ state: string; seq: number; lease_owner: string | null; xmin: string }>(
        `SELECT state, seq, lease_owner, xmin::text AS xmin FROM "${schema}".tasks WHERE id = $1`,
        [taskId],
      )
    ).rows[0];

  it('is two reads at once and one write holding the task and all its events', async () => {
    await send(server, 'warm up'); // the periodic scans of a new server run once at start
    await new Promise((resolve) => setTimeout(resolve, 100));
    calls.length = 0;
    const reply = await send(server, 'hello');
    const task = (reply as { task: Task }).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'echo: hello' }]);
    expect(calls.sort()).toEqual(['find_messages', 'interrupted_held', 'write_batch']);
    const events = await rows(task.id);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    const row = await taskRow(task.id);
    expect(row).toMatchObject({ state: 'TASK_STATE_COMPLETED', seq: 4, lease_owner: null });
    // One transaction: the task row and its four events.
    expect(new Set([row?.xmin, ...events.map((e) => e.xmin)]).size).toBe(1);
    // The audit chain links each row of that write, as an append would have.
    const log = await store.events({ tenant: '', owner: '' }, task.id, 0);
    let previous = GENESIS_HASH;
    for (const entry of log) {
      expect(entry.hash).toBe(chainHash(previous, entry.seq, entry.event));
      previous = entry.hash ?? '';
    }
    // Answered from the write, yet what a read finds.
    const read = await store.get({ tenant: '', owner: '' }, task.id);
    expect(read?.task).toEqual(task);
  });

  it('gives a task whose agent waits its lease in the creating write', async () => {
    calls.length = 0;
    const reply = send(server, 'wait');
    await expect.poll(() => release, { timeout: 10_000 }).toBeDefined();
    expect(calls).not.toContain('lease_claim');
    const { rows: held } = await other.query<{ id: string; lease_owner: string | null }>(
      `SELECT id, lease_owner FROM "${schema}".tasks WHERE state = 'TASK_STATE_WORKING'`,
    );
    expect(held).toHaveLength(1);
    expect(held[0]?.lease_owner).toMatch(/^instance-/);
    release?.();
    const task = (await reply) as { task: Task };
    expect(task.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await rows(task.task.id)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('commits concurrent sends together', async () => {
    calls.length = 0;
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => send(server, `${i}`)));
    const ids = replies.map((r) => (r as { task: Task }).task.id);
    const writes = calls.filter((c) => c === 'write_batch').length;
    expect(writes).toBeLessThan(20);
    // Their reads too: one statement looks up the messages of many sends.
    expect(calls.filter((c) => c === 'find_messages').length).toBeLessThan(20);
    expect(calls.filter((c) => c === 'interrupted_held').length).toBeLessThan(20);
    const { rows: xmins } = await other.query<{ n: number }>(
      `SELECT count(DISTINCT xmin::text)::integer AS n FROM "${schema}".tasks WHERE id = ANY($1)`,
      [ids],
    );
    expect(xmins[0]?.n).toBe(writes);
  });

  it('reads unless it holds the snapshot of the caller’s own write', async () => {
    const reply = (await send(server, 'gone')) as { task: Task };
    const scope = { tenant: '', owner: '' };
    calls.length = 0;
    expect((await store.get(scope, reply.task.id, { written: 4 }))?.seq).toBe(4);
    expect(calls).toEqual([]);
    await other.query(`DELETE FROM "${schema}".tasks WHERE id = $1`, [reply.task.id]);
    expect(await store.get(scope, reply.task.id)).toBeUndefined();
    expect(await store.get(scope, reply.task.id, { written: 5 })).toBeUndefined();
  });
});
