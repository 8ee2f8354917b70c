/**
 * Hostile readers (issue: bounded memory per reader): a SendStreamingMessage client that stops
 * reading while the agent yields 1 MB events. The server pauses the reader instead of buffering
 * the task for it: catch-up pages stay within `memory.streamPageBytes` (plus the entry that
 * reaches it) and, once the client reads again, it gets every event, in order, with its id.
 * Real HTTP on 127.0.0.1 (JSON-RPC binding) and a SQLite file; bounded: 40 events, one reader.
 */
import { request, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { serve } from '../../src/node/index.js';
import { A2AServer, createAgent } from '../../src/server/index.js';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import type { TaskStore } from '../../src/stores/types.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-slow-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENTS = 40;
const MB = 1024 * 1024;

it('a reader that stops reading is paused, holds pages of bounded size, and gets every event later', async () => {
  const raw = new SqliteTaskStore({ path: join(dir, 'tasks.db') });
  const pages: number[] = [];
  const events: TaskStore['events'] = async (scope, id, after, limit, maxBytes) => {
    const page = await raw.events(scope, id, after, limit, maxBytes);
    pages.push(page.reduce((n, e) => n + JSON.stringify(e.event).length, 0));
    return page;
  };
  const store = Object.assign(Object.create(raw) as TaskStore, { events });
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let yielded = 0;
  const agent = createAgent({
    card: { name: 'Big', description: 'big events', version: '1', skills: [] },
    async *execute({ task }) {
      yield task.working();
      await gate;
      for (let i = 0; i < EVENTS; i++) {
        yield task.artifact('x'.repeat(MB), { name: `chunk ${i}` });
        yielded++;
      }
      yield task.completed();
    },
  });
  const server = new A2AServer({ agent, store, ownership: false, logger: null });
  const running = await serve(server, { port: 0, host: '127.0.0.1', logger: null, grpc: false });
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] } },
    });
    const url = new URL('/a2a/jsonrpc', running.url);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      });
      req.on('response', resolve).on('error', reject);
      req.end(body);
    });
    expect(response.statusCode).toBe(200);
    response.pause(); // the hostile part: read nothing while the task produces 40 MB
    release();
    while (yielded < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.idle();

    response.setEncoding('utf8');
    let text = '';
    response.on('data', (chunk: string) => (text += chunk));
    await new Promise((resolve) => response.on('end', resolve).resume());
    const ids = [...text.matchAll(/^id: ?(\d+)$/gm)].map((m) => Number(m[1]));
    // The task, WORKING, 40 artifacts, COMPLETED: every event once, in log order.
    expect(ids).toEqual(Array.from({ length: EVENTS + 3 }, (_, i) => i + 1));
    expect(text).toContain('TASK_STATE_COMPLETED');
    // It was caught up from the log in pages, none much larger than the 4 MiB default.
    expect(pages.length).toBeGreaterThan(5);
    expect(Math.max(...pages)).toBeLessThan(4 * MB + 1.1 * MB);
  } finally {
    await running.close();
    await server.close();
  }
}, 60_000);
