/**
 * ListTasks over tasks of several MiB on SQLite and PostgreSQL (issue 23, item 4): the byte
 * budget of a page (TaskQuery.maxBytes, the server's `memory.listPageBytes`) holds in the query.
 * The store measures each task in the database and reads only the tasks that fit, so listing a
 * page of 4 MiB tasks grows the heap by about one task, not by the page; following the tokens
 * returns every task once; a task larger than the budget comes alone on its page, and over HTTP
 * with includeArtifacts it is a 200 with the whole task, never a 500. Heap growth is measured in
 * this process after a full GC (V8's gc exposed at run time), A/B against the unbounded query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/server/index.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import type { Task } from '../../src/core/schemas/index.js';
import type { Scope, TaskStore } from '../../src/stores/types.js';
import {
  artifactEvent,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
  uniqueId,
} from '../../src/testing/store-fixtures.js';
import { startServer } from '../helpers/server.js';
import { POSTGRES_URL, freshSchema, postgresFixture } from './postgres-helpers.js';

const MiB = 1024 * 1024;
const TASKS = 8;
const TASK_BYTES = 4 * MiB;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => process.memoryUsage().heapUsed;

/** Heap growth while `run` runs, from a collected heap, with its result still held. */
async function growth<T>(run: () => Promise<T>): Promise<{ result: T; grown: number }> {
  gc();
  const before = heap();
  const result = await run();
  return { result, grown: heap() - before };
}

/** `TASKS` completed tasks of one context, each with an artifact of `TASK_BYTES` characters. */
async function fill(store: TaskStore, scope: Scope, contextId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < TASKS; i++) {
    const task = newTask({ contextId, timestamp: `2026-01-01T00:00:0${i}Z` });
    await store.create(scope, task);
    const text = String.fromCharCode(97 + i).repeat(TASK_BYTES);
    await store.append(
      scope,
      task.id,
      [
        artifactEvent(task, textArtifact('big', text)),
        statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: `2026-01-01T00:01:0${i}Z` }),
      ],
      1,
    );
    ids.push(task.id);
  }
  return ids;
}

/** Every task of the context, page after page. */
async function listAll(store: TaskStore, scope: Scope, contextId: string, maxBytes: number) {
  const pages: Task[][] = [];
  let pageToken = '';
  do {
    const page = await store.list(scope, { contextId, pageSize: 50, maxBytes, pageToken });
    expect(page.totalSize).toBe(TASKS);
    pages.push(page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken && pages.length <= TASKS);
  return pages;
}

interface Backend {
  readonly name: string;
  readonly enabled: boolean;
  /** A store on the shared database; a second call opens another one (a cold cache). */
  open(): Promise<TaskStore>;
}

const dir = mkdtempSync(join(tmpdir(), 'a2a-list-bytes-'));
const schema = freshSchema();
if (POSTGRES_URL) postgresFixture([schema]);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backends: Backend[] = [
  {
    name: 'SQLite',
    enabled: true,
    open: async () => new SqliteTaskStore({ path: join(dir, 'tasks.db') }),
  },
  {
    name: 'PostgreSQL',
    enabled: POSTGRES_URL !== undefined,
    open: () => PostgresTaskStore.open({ connectionString: POSTGRES_URL ?? '', schema }),
  },
];

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`ListTasks by bytes on ${backend.name}`, () => {
    it('reads only the tasks within the byte budget: heap grows by one task, not the page', async () => {
      const { scope } = freshScopes();
      const contextId = uniqueId('ctx');
      const writer = await backend.open();
      const ids = await fill(writer, scope, contextId);
      await writer.close();
      const store = await backend.open(); // nothing cached: every task is read from the database
      try {
        const bounded = await growth(() =>
          store.list(scope, { contextId, pageSize: 50, maxBytes: 6 * MiB }),
        );
        expect(bounded.result.tasks).toHaveLength(1);
        expect(bounded.result.nextPageToken).not.toBe('');
        const unbounded = await growth(() => store.list(scope, { contextId, pageSize: 50 }));
        expect(unbounded.result.tasks).toHaveLength(TASKS);
        console.log(
          `${backend.name}: heap +${(bounded.grown / MiB).toFixed(1)} MiB for a page bounded to 6 MiB, +${(unbounded.grown / MiB).toFixed(1)} MiB for the same page unbounded (${TASKS} tasks of ${TASK_BYTES / MiB} MiB)`,
        );
        expect(unbounded.grown).toBeGreaterThan(TASKS * TASK_BYTES);
        expect(bounded.grown).toBeLessThan(3 * TASK_BYTES);
        // Paging by bytes returns every task once, newest first: one per page at 6 MiB, two at 9.
        for (const [maxBytes, perPage] of [
          [6 * MiB, 1],
          [9 * MiB, 2],
        ] as const) {
          const pages = await listAll(store, scope, contextId, maxBytes);
          expect(pages.map((p) => p.length)).toEqual(Array(TASKS / perPage).fill(perPage));
          expect(pages.flat().map((t) => t.id)).toEqual([...ids].reverse());
          expect(
            pages.flat().every((t) => t.artifacts?.[0]?.parts[0]?.text?.length === TASK_BYTES),
          ).toBe(true);
        }
        // A budget smaller than one task: each task alone on its page, whole.
        const alone = await listAll(store, scope, contextId, MiB);
        expect(alone.map((p) => p.length)).toEqual(Array(TASKS).fill(1));
      } finally {
        await store.close();
      }
    });

    it('answers ListTasks with includeArtifacts over HTTP with 200, a task past the budget alone', async () => {
      const store = await backend.open();
      const agent = createAgent({
        card: { name: 'Big', description: 'large artifacts', version: '1', skills: [] },
        async *execute({ task }) {
          yield task.artifact('z'.repeat(3 * MiB), { name: 'large' });
          yield task.completed();
        },
      });
      const server = await startServer(agent, { store, memory: { listPageBytes: MiB } });
      try {
        const contextId = uniqueId('ctx');
        const call = async (method: string, params: unknown) => {
          const response = await fetch(`${server.url}/a2a/jsonrpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          });
          expect(response.status).toBe(200);
          return (await response.json()) as {
            result: { tasks: Task[]; nextPageToken: string };
            error?: unknown;
          };
        };
        for (let i = 0; i < 3; i++) {
          const message = {
            messageId: uniqueId('m'),
            role: 'ROLE_USER',
            parts: [{ text: 'go' }],
            contextId,
          };
          expect((await call('SendMessage', { message })).error).toBeUndefined();
        }
        const seen: string[] = [];
        let pageToken = '';
        let pages = 0;
        do {
          const reply = await call('ListTasks', { contextId, includeArtifacts: true, pageToken });
          expect(reply.error).toBeUndefined();
          const tasks = reply.result.tasks;
          expect(tasks).toHaveLength(1);
          expect(tasks[0]?.artifacts?.[0]?.parts[0]?.text).toHaveLength(3 * MiB);
          seen.push(...tasks.map((t) => t.id));
          pageToken = reply.result.nextPageToken;
          pages++;
        } while (pageToken && pages < 10);
        expect(new Set(seen).size).toBe(3);
        expect(server.internalErrors).toEqual([]);
      } finally {
        await server.close();
        await store.close();
      }
    });
  });
}
