/**
 * TaskRunner in isolation (memory store and bus, no HTTP): it creates the task, records what the
 * agent yields in order, batches events yielded without waiting, lets cancel win over what the
 * agent yields afterwards, fails the task when the agent throws or yields something invalid, and
 * resumes a paused task with the user's answer recorded first.
 */
import { describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { Message, StreamResponse } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope } from '../stores/types.js';
import { createAgent, type Agent, type AgentEvent, type ExecutionContext } from './agent.js';
import { TaskLog } from './task-log.js';
import { TaskRunner, type StartOptions } from './task-runner.js';

const scope: Scope = { tenant: '', owner: '' };
const card = { name: 'T', description: 'runner test', version: '1', skills: [] };

function runner(execute: (context: ExecutionContext) => AsyncIterable<AgentEvent>) {
  const store = new MemoryTaskStore();
  const bus = new MemoryEventBus();
  const agent: Agent = createAgent({ card, execute });
  const errors: string[] = [];
  const logger = { warn: () => undefined, error: (...a: unknown[]) => errors.push(a.join(' ')) };
  const run = new TaskRunner({ log: new TaskLog({ store, bus }), agent, logger });
  const start = (message: Message = userMessage('go'), extra: Partial<StartOptions> = {}) =>
    run.start({
      scope,
      call: {},
      message,
      taskId: extra.taskId ?? `task-${globalThis.crypto.randomUUID()}`,
      contextId: 'ctx',
      configuration: undefined,
      metadata: undefined,
      ...extra,
    });
  const log = async (taskId: string) =>
    (await store.events(scope, taskId, 0)).map(({ seq, event }) => `${seq} ${show(event)}`);
  return { store, run, start, log, errors };
}

function show(event: StreamResponse): string {
  if ('task' in event) return `task ${event.task.status.state}`;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  if ('artifactUpdate' in event) return `artifact ${textOf(event.artifactUpdate.artifact)}`;
  return `message ${textOf(event.message)}`;
}

const started = (result: Awaited<ReturnType<TaskRunner['start']>>) => {
  if ('message' in result) throw new Error('expected a task');
  return result;
};

describe('TaskRunner', () => {
  it('creates the task and records every event in order, once settled', async () => {
    const r = runner(async function* ({ task }) {
      yield task.working();
      await new Promise((resolve) => setTimeout(resolve, 1));
      yield task.artifact('a');
      yield task.completed();
    });
    const result = started(await r.start());
    expect(result.created).toBe(true);
    await result.settled?.();
    expect(await r.log(result.taskId)).toEqual([
      '1 task TASK_STATE_SUBMITTED',
      '2 TASK_STATE_WORKING',
      '3 artifact a',
      '4 TASK_STATE_COMPLETED',
    ]);
    await r.run.idle();
    expect(r.run.isRunning(result.taskId)).toBe(false);
  });

  it('answers with a message when the agent replies without a task', async () => {
    const r = runner(async function* () {
      yield { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] };
    });
    const result = await r.start();
    expect('message' in result && textOf(result.message)).toBe('hi');
  });

  it('cancel wins over what the agent yields afterwards', async () => {
    let go: () => void = () => undefined;
    const r = runner(async function* ({ task }) {
      yield task.working();
      await new Promise<void>((resolve) => (go = resolve));
      yield task.completed();
    });
    const result = started(await r.start());
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await r.run.cancel(result.taskId)).toBe(true);
    go();
    await r.run.idle();
    expect((await r.log(result.taskId)).slice(1)).toEqual([
      '2 TASK_STATE_WORKING',
      '3 TASK_STATE_CANCELED',
    ]);
  });

  it('fails the task when the agent throws, hiding its message by default', async () => {
    const r = runner(async function* ({ task }) {
      yield task.working();
      throw new Error('secret detail');
    });
    const result = started(await r.start());
    await r.run.idle();
    const record = await r.store.get(scope, result.taskId);
    expect(record?.task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(record?.task.status.message as Message)).toBe(
      'The agent failed while working on the task.',
    );
    expect(r.errors.join()).toMatch(/agent failed on task/);
  });

  it('fails the task on a forbidden transition, keeping the events before it', async () => {
    const r = runner(async function* ({ task }) {
      yield task.working();
      yield task.artifact('kept');
      yield task.submitted();
    });
    const result = started(await r.start());
    await r.run.idle();
    expect((await r.log(result.taskId)).slice(1)).toEqual([
      '2 TASK_STATE_WORKING',
      '3 artifact kept',
      '4 TASK_STATE_FAILED',
    ]);
  });

  it('resumes a paused task: the answer and SUBMITTED are recorded before the agent runs', async () => {
    const r = runner(async function* ({ task, current }) {
      if (current) {
        yield task.completed('thanks');
        return;
      }
      yield task.inputRequired('which?');
    });
    const first = started(await r.start());
    await first.settled?.();
    await r.run.idle();
    const record = await r.store.get(scope, first.taskId);
    const answer = userMessage('that one');
    const second = started(
      await r.start(answer, { taskId: first.taskId, current: record, fingerprint: 'f1' }),
    );
    expect(second.created).toBe(false);
    expect(second.resumed?.status.state).toBe('TASK_STATE_SUBMITTED');
    await r.run.idle();
    expect((await r.log(first.taskId)).slice(1)).toEqual([
      '2 TASK_STATE_INPUT_REQUIRED',
      '3 message that one',
      '4 TASK_STATE_SUBMITTED',
      '5 TASK_STATE_COMPLETED',
    ]);
    // Indexed with its fingerprint (intake.ts computes it), for retries of the answer.
    expect(await r.store.findByMessageId(scope, answer.messageId)).toMatchObject({
      taskId: first.taskId,
      fingerprint: 'f1',
    });
  });
});
