/**
 * The per-task byte budget (A2AServer `memory.maxTaskBytes`, enforced by src/server/task-log.ts)
 * on a given store: the same cases run on memory, SQLite (src/server/task-budget.test.ts) and
 * PostgreSQL (test/integration/postgres-task-budget.test.ts), so every store behaves the same.
 * An agent write past the budget is not recorded (nothing half-written) and the task is FAILED
 * with a status message naming the limit and the option; a client message past it is refused
 * with INVALID_PARAMS; an artifact replaced under its id does not count twice.
 */
import { expect, it } from 'vitest';
import { A2AError } from '../../src/core/errors.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { Task } from '../../src/core/schemas/index.js';
import { A2AServer } from '../../src/server/a2a-server.js';
import { createAgent } from '../../src/server/agent.js';
import type { TaskStore } from '../../src/stores/types.js';

const KB = 1024;
/** The budget of every case: 64 KiB. */
export const BUDGET = 64 * KB;

/** Commands: `chunks N` (N 20 KiB chunks), `status` (a 100 KiB status message), `replace N`. */
const agent = createAgent({
  card: { name: 'Budget', description: 'grows its tasks', version: '1', skills: [] },
  async *execute({ message, task, signal }) {
    const [command = '', count = '1'] = textOf(message).split(' ');
    const n = Number(count);
    if (command === 'ask') {
      yield task.inputRequired('more?');
      return;
    }
    yield task.working();
    if (command === 'status') {
      yield task.working('s'.repeat(100 * KB));
    }
    for (let i = 0; i < n && !signal.aborted; i++) {
      // Awaited between chunks: each chunk is a write of its own.
      await new Promise((resolve) => setImmediate(resolve));
      yield task.artifact(`${i}:`.padEnd(20 * KB, 'x'), {
        artifactId: 'out',
        append: command === 'chunks' && i > 0,
      });
    }
    yield task.completed();
  },
});

async function run(server: A2AServer, text: string): Promise<Task> {
  const result = await server.sendMessage({ message: userMessage(text) }, {});
  if (!('task' in result)) throw new Error('expected a task');
  return result.task;
}

/** Registers the cases; `open` gives a fresh store (closed by the server). */
export function taskBudgetCases(open: () => Promise<TaskStore>): void {
  /** Runs `body` against a server on a fresh store with the budget, then closes it. */
  const withServer = async (body: (a2a: A2AServer) => Promise<void>) => {
    const store = await open();
    const a2a = new A2AServer({ agent, store, logger: null, memory: { maxTaskBytes: BUDGET } });
    try {
      await body(a2a);
    } finally {
      await a2a.idle();
      await a2a.close();
    }
  };

  it('fails the task when the agent outgrows it, recording nothing of that write', () =>
    withServer(async (a2a) => {
      const task = await run(a2a, 'chunks 5'); // 5 × 20 KiB: the 4th chunk passes 64 KiB
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      const text = textOf(task.status.message ?? { parts: [] });
      expect(text).toContain(`size limit of ${BUDGET} bytes`);
      expect(text).toContain('memory.maxTaskBytes');
      // Chunks 1-3 are kept whole, the refused 4th left no trace, the agent stopped.
      const parts = task.artifacts?.[0]?.parts ?? [];
      expect(parts.map((p) => p.text?.slice(0, 2))).toEqual(['0:', '1:', '2:']);
      const log = await a2a.store.events({ tenant: '', owner: '' }, task.id, 0, 100);
      expect(log.filter((e) => 'artifactUpdate' in e.event)).toHaveLength(3);
      expect(log.at(-1)?.event).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_FAILED');
    }));

  it('counts status messages: one past the budget fails the task', () =>
    withServer(async (a2a) => {
      const task = await run(a2a, 'status 0');
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      expect(textOf(task.status.message ?? { parts: [] })).toContain('memory.maxTaskBytes');
      expect(task.history?.some((m) => textOf(m).startsWith('sss'))).toBe(false);
    }));

  it('counts an artifact replaced under its id once', () =>
    withServer(async (a2a) => {
      const task = await run(a2a, 'replace 6'); // 6 × 20 KiB sent, 20 KiB held
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.[0]?.parts.map((p) => p.text?.slice(0, 2))).toEqual(['5:']);
    }));

  it('refuses a client message past it with INVALID_PARAMS, new task or follow-up', () =>
    withServer(async (a2a) => {
      const big = 'b'.repeat(BUDGET);
      const first = await run(a2a, `ask ${big}`).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(A2AError);
      expect(first).toMatchObject({ code: 'INVALID_PARAMS' });
      expect((first as A2AError).message).toContain('memory.maxTaskBytes');
      const asked = await run(a2a, 'ask');
      const answer = { ...userMessage(big), taskId: asked.id, contextId: asked.contextId };
      const refused = await a2a.sendMessage({ message: answer }, {}).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'INVALID_PARAMS' });
      const kept = await a2a.getTask({ id: asked.id }, {});
      expect(kept.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(kept.history).toEqual(asked.history);
    }));
}
