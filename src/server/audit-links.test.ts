/**
 * Where the audit chain's links are hashed (docs/trust.md). On the memory store
 * (StoreFacets.linksOnRead) the write path hashes nothing and the store keeps no hash; GetTask
 * with the audit extension derives the chain from the log. It is the same chain a store that
 * links on write keeps for the same log, it survives the packing of finished tasks, and an
 * export of it is checked like any other. On SQLite the links are hashed on write and each
 * event's JSON is the RFC 8785 text its link was hashed from (CreateOptions.texts).
 */
import { describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { Task } from '../core/schemas/index.js';
import { AUDIT_EXTENSION, checkChain, exportLines } from '../security/audit-chain.js';
import { canonicalize } from '../security/jcs.js';
import { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import { rowLines, type EventRow } from '../stores/sqlite/event-rows.js';
import { LiveTask, type TaskEntry } from '../stores/memory/task-entry.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { createAgent, type ExecutionContext } from './agent.js';
import { A2AServer } from './a2a-server.js';
import { auditTrail, type AuditTrail } from './audit.js';

const scope: Scope = { tenant: '', owner: '' };
const card = {
  name: 'T',
  description: 'audit on read',
  version: '1',
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};
const echo = async function* ({ task, message }: ExecutionContext) {
  yield task.working();
  // A lone surrogate has no RFC 8785 form: its link is hashed from the plain JSON text.
  yield task.artifact(textOf(message) === 'lone' ? 'echo \ud800' : 'echo', { name: 'echo' });
  yield task.completed();
};
const audited = { requestedExtensions: [AUDIT_EXTENSION] };

function server(store: TaskStore): A2AServer {
  return new A2AServer({
    agent: createAgent({ card, execute: echo }),
    store,
    logger: null,
    audit: true,
  });
}

async function send(s: A2AServer, text = 'hi'): Promise<Task> {
  return ((await s.sendMessage({ message: userMessage(text) }, {})) as { task: Task }).task;
}

async function trailOf(s: A2AServer, id: string): Promise<AuditTrail> {
  const task = await s.getTask({ id }, audited);
  const trail = task.metadata?.[AUDIT_EXTENSION] as AuditTrail | undefined;
  if (trail === undefined) throw new Error(`GetTask ${id} returned no audit trail`);
  return trail;
}

describe('the audit chain derived on read (memory store)', () => {
  it('writes no hash, and GetTask returns a chain of every event that checks offline', async () => {
    const store = new MemoryTaskStore();
    expect(store.facets.linksOnRead).toBe(true);
    const s = server(store);
    const task = await send(s);
    const log = await store.events(scope, task.id, 0);
    expect(log.map((e) => e.hash)).toEqual([undefined, undefined, undefined, undefined]);
    const trail = await trailOf(s, task.id);
    expect(trail.links.map((l) => l.seq)).toEqual([1, 2, 3, 4]);
    expect(trail.links.map((l) => l.event)).toEqual(log.map((e) => e.event));
    expect(trail.head).toMatchObject({ taskId: task.id, seq: 4, hash: trail.links[3]?.hash });
    const file = exportLines(task.id, trail.links, trail.head);
    expect(checkChain(file).problem).toBeUndefined();
    const forged = file.replace('"text":"echo"', '"text":"forged"');
    expect(forged).not.toBe(file);
    expect(checkChain(forged)).toMatchObject({
      seq: 3,
      problem: expect.stringMatching(/seq 3 was modified/),
    });
    await s.close();
  });

  it('is the chain a store that links on write keeps for the same log', async () => {
    // The memory store told to link on write, as a durable store does: the hashes are the
    // write path's; read through a view that derives them, the same log gives the same links.
    const linked = new MemoryTaskStore({ linksOnRead: false });
    const s = server(linked);
    const task = await send(s);
    const stored = await linked.events(scope, task.id, 0);
    expect(stored.every((e) => typeof e.hash === 'string' && e.hash.length === 43)).toBe(true);
    const view = Object.create(linked, {
      facets: { value: { ...linked.facets, linksOnRead: true } },
    }) as TaskStore;
    const derived = await auditTrail(view, scope, task.id, undefined);
    expect(derived.links.map((l) => l.hash)).toEqual(stored.map((e) => e.hash));
    expect((await auditTrail(linked, scope, task.id, undefined)).links).toEqual(derived.links);
    await s.close();
  });

  it('is the same chain once the finished task is packed', async () => {
    const store = new MemoryTaskStore();
    const s = server(store);
    const first = await send(s, 'first');
    const before = await trailOf(s, first.id);
    // Past the 256 finished tasks kept as objects, the first is packed into one string.
    for (let i = 0; i < 300; i++) await send(s, `task ${i}`);
    await new Promise((resolve) => setImmediate(resolve));
    const entries = (store as unknown as { tasks: Map<string, TaskEntry> }).tasks;
    expect(entries.get(first.id)?.body).not.toBeInstanceOf(LiveTask);
    expect(await trailOf(s, first.id)).toEqual(before);
    await s.close();
  });
});

describe('the audit chain hashed on write (SQLite)', () => {
  it("keeps each event's JSON as the RFC 8785 text of its link, the chain checking offline", async () => {
    const store = new SqliteTaskStore({ path: ':memory:' });
    expect(store.facets.linksOnRead).toBeUndefined();
    const s = server(store);
    for (const text of ['hi', 'lone']) {
      const task = await send(s, text);
      const stored = store.db
        .prepare('SELECT seq, event, hash FROM events WHERE task_id = ? ORDER BY seq')
        .all(task.id) as EventRow[];
      // The creation, then the agent's burst in one row of one event per line.
      expect(stored.map((r) => r.seq)).toEqual([1, 4]);
      const rows = stored
        .flatMap(rowLines)
        .map(({ seq, text, hash }) => ({ seq, event: text, hash }));
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      const trail = await trailOf(s, task.id);
      expect(rows.map((r) => r.hash)).toEqual(trail.links.map((l) => l.hash));
      expect(rows.map((r) => JSON.parse(r.event))).toEqual(trail.links.map((l) => l.event));
      const lone = rows.filter((r) => r.event.includes('\\ud800'));
      expect(lone.length).toBe(text === 'lone' ? 1 : 0);
      for (const row of rows) {
        const event = JSON.parse(row.event) as unknown;
        if (row.event.includes('\\ud800')) {
          // The link without an RFC 8785 form: the event stored as JSON.stringify wrote it.
          expect(row.seq).toBe(3);
          expect(row.event).toBe(JSON.stringify(event));
        } else expect(row.event).toBe(canonicalize(event));
      }
      expect(checkChain(exportLines(task.id, trail.links, trail.head)).problem).toBeUndefined();
    }
    await s.close();
  });
});
