/** The demo's `--store`: parsing, and tasks that survive a restart on a SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { textOf, userMessage } from '../server/index.js';
import { NOT_RESUMED_TEXT } from '../server/recovery.js';
import { parseDemoArgs, startDemo } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-demo-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--store', () => {
  it.each([
    [['--store', 'memory'], {}, { store: 'memory' }],
    [[], { A2A_STORE: 'postgres://db/agents' }, { store: 'postgres://db/agents' }],
    [['--store=x.db'], { A2A_STORE: 'y.db' }, { store: 'x.db' }],
  ])('reads %j with env %j', (argv, env, expected) => {
    expect(parseDemoArgs(argv, env)).toEqual(expected);
  });
});

describe('the demo on a SQLite file', () => {
  it('keeps tasks across a restart, continues a paused one, fails one left running', async () => {
    const store = join(dir, 'tasks.db');
    const options = { port: 0, grpc: false, logger: null, store } as const;
    const first = await startDemo(options);
    expect(first.storage).toBe(`SQLite file ${store}`);
    const send = (text: string, taskId?: string) =>
      first.server.sendMessage(
        {
          message: userMessage(text, taskId ? { taskId } : {}),
          configuration: { returnImmediately: true },
        },
        {},
      );
    const booking = await send('book');
    const slow = await send('slow 60');
    if (!('task' in booking) || !('task' in slow)) throw new Error('expected tasks');
    await vi.waitFor(async () => {
      const task = await first.server.getTask({ id: booking.task.id }, {});
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    });
    await first.close(); // `slow` is still WORKING in the file

    const second = await startDemo(options);
    try {
      const left = await vi.waitFor(async () => {
        const task = await second.server.getTask({ id: slow.task.id }, {});
        expect(task.status.state).toBe('TASK_STATE_FAILED');
        return task;
      });
      expect(textOf(left.status.message ?? { parts: [] })).toBe(NOT_RESUMED_TEXT);
      const answer = userMessage('2026-12-24', { taskId: booking.task.id });
      const done = await second.server.sendMessage({ message: answer }, {});
      expect('task' in done && done.task.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await second.close();
    }
  });
});
