/**
 * The A2A 1.1 draft's task generations (spec repo branch `dev-1.1`: §3.2.7 Task Generation
 * Semantics, §3.2.2 `ifGenerationMatch`, §5.4 TaskGenerationMismatchError), served behind
 * `A2AServerOptions.generations` (docs/generations.md), over every binding. Not in the 1.0.1
 * requirement list (test/conformance/requirements.ts), so the tests cite no number.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, ok } from '../helpers/expect.js';
import { getTask, payloads, sendTask, userMessage } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { ERROR_INFO_TYPE } from '../helpers/wire.js';
import { taskOf, type WireStreamResponse } from '../helpers/shapes.js';

const { agent } = scriptedAgent();

/** The generation an event or task carries (int64: a number or a decimal string). */
function generationOf(event: WireStreamResponse): number | undefined {
  const value =
    'task' in event
      ? event.task.generation
      : 'statusUpdate' in event
        ? event.statusUpdate.generation
        : 'artifactUpdate' in event
          ? event.artifactUpdate.generation
          : undefined;
  return value === undefined ? undefined : Number(value);
}

serverSuite(
  'task generations (A2A 1.1 draft, generations: true)',
  () => startServer(agent, { generations: true }),
  () => {
    verifies(
      [],
      'a task starts at 1 and every status or artifact update adds exactly 1',
      async (b) => {
        const res = await b.stream('SendStreamingMessage', { message: userMessage('chunks 3') });
        if (!res.ok) return expect.fail('the stream was refused');
        const events = payloads(res.events).filter((e) => !('message' in e));
        const generations = events.map(generationOf);
        // task snapshot, WORKING, three chunks, COMPLETED
        expect(generations).toEqual([1, 2, 3, 4, 5, 6]);
        const first = events[0];
        const id = first && 'task' in first ? first.task.id : '';
        expect(Number((await getTask(b, id)).generation)).toBe(6);
      },
    );

    verifies(
      [],
      'a stale ifGenerationMatch gets TASK_GENERATION_MISMATCH and changes nothing; the current one is accepted',
      async (b) => {
        const task = await sendTask(b, 'ask');
        expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        const seen = Number(task.generation);
        expect(seen).toBe(3); // created, WORKING, INPUT_REQUIRED
        const follow = (ifGenerationMatch: number) => ({
          message: userMessage('echo late', { taskId: task.id }),
          configuration: { ifGenerationMatch },
        });
        const error = expectError(
          await b.call('SendMessage', follow(seen - 1)),
          'TASK_GENERATION_MISMATCH',
        );
        const info = error.details.find((d) => d['@type'] === ERROR_INFO_TYPE);
        expect(info).toMatchObject({
          metadata: {
            taskId: task.id,
            expectedGeneration: String(seen - 1),
            currentGeneration: String(seen),
          },
        });
        const untouched = await getTask(b, task.id);
        expect([untouched.status.state, Number(untouched.generation)]).toEqual([
          'TASK_STATE_INPUT_REQUIRED',
          seen,
        ]);
        expect(untouched.history?.length).toBe(task.history?.length);

        const done = taskOf(ok(await b.call('SendMessage', follow(seen))));
        expect(done.status.state).toBe('TASK_STATE_COMPLETED');
        expect(Number(done.generation)).toBeGreaterThan(seen);
        // The same precondition again is stale now: the task moved on.
        expectError(await b.call('SendMessage', follow(seen)), 'TASK_GENERATION_MISMATCH');
      },
    );

    verifies([], 'ifGenerationMatch is ignored by a message that creates a task', async (b) => {
      const task = taskOf(
        ok(
          await b.call('SendMessage', {
            message: userMessage('echo new'),
            configuration: { ifGenerationMatch: 42 },
          }),
        ),
      );
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    verifies([], 'GetTask takes currentGeneration and answers with the current task', async (b) => {
      const task = await sendTask(b, 'ask');
      const seen = Number(task.generation);
      const got = await getTask(b, task.id, { currentGeneration: seen - 1 });
      expect(Number(got.generation)).toBe(seen);
    });
  },
);

serverSuite(
  'task generations off (the 1.0 default)',
  () => startServer(agent),
  () => {
    verifies([], 'no generation anywhere, and ifGenerationMatch is not checked', async (b) => {
      const task = await sendTask(b, 'ask');
      expect(task.generation).toBeUndefined();
      const done = taskOf(
        ok(
          await b.call('SendMessage', {
            message: userMessage('echo on', { taskId: task.id }),
            configuration: { ifGenerationMatch: 99 },
          }),
        ),
      );
      expect([done.status.state, done.generation]).toEqual(['TASK_STATE_COMPLETED', undefined]);
    });
  },
);
