/**
 * One caller cannot pile up open tasks: with `interrupted.maxPerCaller`, a caller (tenant and
 * principal) holding that many INPUT_REQUIRED / AUTH_REQUIRED tasks (spec §3.1) is refused new
 * tasks with RATE_LIMITED (429, gRPC RESOURCE_EXHAUSTED) naming the limit, over every binding;
 * another caller is unaffected, and the hoarder can still answer (or cancel) what it holds.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { errorOf, ok } from '../helpers/expect.js';
import { sendParams, uid } from '../helpers/requests.js';
import { taskOf } from '../helpers/shapes.js';
import { startServer } from '../helpers/server.js';

const CAP = 5;

serverSuite(
  'abandoned tasks: per-caller cap',
  () => startServer(scriptedAgent().agent, { interrupted: { maxPerCaller: CAP } }),
  (server) => {
    verifies(
      [160],
      'a caller holding the cap of interrupted tasks is refused new ones; others are not',
      async (b) => {
        const mallory = uid('mallory');
        const victim = uid('victim');
        /** SendMessage as the caller of `tenant` that must answer with a task. */
        const open = async (tenant: string, text: string) =>
          taskOf(ok(await b.call('SendMessage', { tenant, ...sendParams(text) })));
        const held: string[] = [];
        for (let i = 0; i < CAP; i++) {
          const task = await open(mallory, i % 2 ? 'auth' : 'ask');
          held.push(task.id);
        }
        // Every further new task of this caller is refused, streaming included.
        for (const operation of ['SendMessage', 'SendStreamingMessage'] as const) {
          const params = { tenant: mallory, ...sendParams('ask') };
          const result =
            operation === 'SendMessage'
              ? await b.call(operation, params)
              : await b.open(operation, params);
          const error = errorOf(result);
          // RATE_LIMITED: JSON-RPC -31429 with HTTP 429, HTTP+JSON 429, gRPC RESOURCE_EXHAUSTED.
          if (error.binding === 'GRPC') {
            expect(error.status, error.message).toBe('RESOURCE_EXHAUSTED');
          } else {
            expect(error.httpStatus, error.message).toBe(429);
            if (error.binding === 'JSONRPC') expect(error.rpcCode).toBe(-31429);
          }
          expect(error.message).toContain(`the limit is ${CAP}`);
          expect(error.message).toContain('interrupted.maxPerCaller');
        }
        const listed = ok(
          await b.call('ListTasks', { tenant: mallory, status: 'TASK_STATE_INPUT_REQUIRED' }),
        ) as { tasks: unknown[] };
        expect(listed.tasks.length).toBeLessThanOrEqual(CAP);
        // Another caller is unaffected.
        const other = await open(victim, 'ask');
        expect(other.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        // The hoarder may still answer an open task, which frees a place.
        const answer = sendParams('echo Ada', { message: { taskId: held[0] } });
        ok(await b.call('SendMessage', { tenant: mallory, ...answer }));
        const again = await open(mallory, 'ask');
        expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        expect(server.running.internalErrors).toEqual([]);
      },
    );
  },
);
