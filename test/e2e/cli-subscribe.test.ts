/**
 * `a2a subscribe` ends when the task is interrupted (INPUT_REQUIRED, AUTH_REQUIRED), as its help
 * says, on every binding: SubscribeToTask itself stays open past an interruption (spec §3.1.6
 * closes it only at a terminal state), so the CLI stops following there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';
import { cli, cliJson } from './harness.js';

/** Released by the test once `subscribe` shows the running task. */
const gates = new Map<string, () => void>();

const agent = createAgent({
  card: {
    name: 'Pauses on request',
    description: 'works until the test lets it go on, then asks for input or authorization',
    version: '1',
    capabilities: { streaming: true },
    skills: [{ id: 'p', name: 'P', description: 'p', tags: ['t'] }],
  },
  async *execute({ task, message, current }) {
    if (current !== undefined) {
      yield task.completed('thanks');
      return;
    }
    yield task.working('waiting for the test');
    await new Promise<void>((resolve) => gates.set(task.id, resolve));
    if (textOf(message) === 'auth') yield task.authRequired('sign in first');
    else yield task.inputRequired('which date?');
  },
});

let served: ServeResult;

beforeAll(async () => {
  served = await serve(agent, { port: 0, logger: null, grpc: true });
});
afterAll(() => served.close());

async function startTask(text: string): Promise<string> {
  const { code, json } = await cliJson<{ task: { id: string } }>([
    'send',
    served.url,
    '--no-wait',
    text,
  ]);
  expect(code).toBe(0);
  return json.task.id;
}

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'])('a2a subscribe over %s', (binding) => {
  it.each([
    ['input', 'INPUT_REQUIRED', 'the agent needs input'],
    ['auth', 'AUTH_REQUIRED', 'the agent needs authorization'],
  ])(
    'exits 0 when the task turns %s-required while followed',
    async (text, state, hint) => {
      const id = await startTask(text);
      const { code, stdout, stderr } = await cli(
        ['subscribe', served.url, id, '--binding', binding],
        {
          onStdout: (soFar) => {
            if (soFar.includes('WORKING')) void release(id);
          },
        },
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`final state ${state} · task ${id}`);
      expect(stdout).toContain(hint);
      // The task is still there to be continued.
      const more = await cli(['send', served.url, '--task', id, 'more', '--binding', binding]);
      expect(more.stdout).toMatch(/^State\s+COMPLETED/m);
    },
    15_000,
  );

  it('exits at once when the task is already waiting for input', async () => {
    const id = await startTask('input');
    await release(id);
    await waitFor(async () => {
      const { json } = await cliJson<{ status: { state: string } }>(['get', served.url, id]);
      return json.status.state === 'TASK_STATE_INPUT_REQUIRED' || undefined;
    });
    const { code, stdout } = await cli(['subscribe', served.url, id, '--binding', binding]);
    expect(code).toBe(0);
    expect(stdout).toContain(`final state INPUT_REQUIRED · task ${id}`);
  }, 15_000);
});

/** Lets the agent go on with task `id` (its gate is registered asynchronously). */
async function release(id: string): Promise<void> {
  (await waitFor(() => gates.get(id)))();
}

/** Polls until `find` returns something. */
async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
