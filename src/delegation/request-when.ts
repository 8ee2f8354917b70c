/**
 * FIPA Request-When over A2A (docs/extensions/delegation.md §3): "when task T (at agent A)
 * reaches a state, or produces an artifact named X, send message M to agent B". Built on
 * SubscribeToTask (spec §3.1.6) with a GetTask check first; the pending requests live in a
 * {@link RequestWhenStore}, so `resumeRequestWhen` re-arms them after the delegating process
 * restarts.
 */
import { A2AClient } from '../client/client.js';
import { newId } from '../core/ids.js';
import type { Message, StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';

/** The condition on the watched task. */
export interface WhenCondition {
  /** The watched task's agent URL and task id. */
  agent: string;
  taskId: string;
  /** Fire when the task reaches this state (default COMPLETED). */
  state?: TaskState;
  /** And has an artifact with this name. */
  artifactName?: string;
}

/** A request waiting for its condition. */
export interface RequestWhenRecord {
  id: string;
  when: WhenCondition;
  then: { agent: string; message: Message };
  status: 'waiting' | 'sent' | 'dropped';
  /** The task `then` created, once sent. */
  sentTaskId?: string;
  reason?: string;
}

/** Where pending requests are kept (durable implementations survive restarts). */
export interface RequestWhenStore {
  put(record: RequestWhenRecord): Promise<void>;
  list(): Promise<RequestWhenRecord[]>;
}

/** Keeps requests in memory (tests, or a process that need not survive restarts). */
export class MemoryRequestWhenStore implements RequestWhenStore {
  private readonly records = new Map<string, RequestWhenRecord>();
  put(record: RequestWhenRecord): Promise<void> {
    this.records.set(record.id, structuredClone(record));
    return Promise.resolve();
  }
  list(): Promise<RequestWhenRecord[]> {
    return Promise.resolve([...this.records.values()].map((r) => structuredClone(r)));
  }
}

/** Options of {@link requestWhen}. */
export interface RequestWhenOptions {
  store: RequestWhenStore;
  when: WhenCondition;
  then: { agent: string; message: Message };
  connect?: (url: string) => Promise<A2AClient>;
  signal?: AbortSignal;
}

/** Records the request, then watches; resolves with the record once it was sent or dropped. */
export async function requestWhen(options: RequestWhenOptions): Promise<RequestWhenRecord> {
  const record: RequestWhenRecord = {
    id: newId(),
    when: options.when,
    then: options.then,
    status: 'waiting',
  };
  await options.store.put(record);
  return watch(record, options);
}

/** Re-arms every waiting request of `store` (after a restart); resolves when all settle. */
export async function resumeRequestWhen(
  options: Pick<RequestWhenOptions, 'store' | 'connect' | 'signal'>,
): Promise<RequestWhenRecord[]> {
  const waiting = (await options.store.list()).filter((r) => r.status === 'waiting');
  return Promise.all(waiting.map((r) => watch(r, { ...options, when: r.when, then: r.then })));
}

function matches(task: Task, when: WhenCondition): boolean | 'never' {
  const wanted = when.state ?? 'TASK_STATE_COMPLETED';
  if (task.status.state !== wanted) return isTerminal(task.status.state) ? 'never' : false;
  return (
    when.artifactName === undefined ||
    (task.artifacts ?? []).some((a) => a.name === when.artifactName)
  );
}

async function watch(
  record: RequestWhenRecord,
  options: RequestWhenOptions,
): Promise<RequestWhenRecord> {
  const connect = options.connect ?? ((url: string) => A2AClient.connect(url));
  const watched = await connect(record.when.agent);
  let task = await watched.getTask({ id: record.when.taskId });
  let verdict = matches(task, record.when);
  if (verdict === false) {
    try {
      for await (const event of watched.subscribeToTask(
        { id: record.when.taskId },
        options.signal ? { signal: options.signal } : {},
      )) {
        task = apply(task, event);
        verdict = matches(task, record.when);
        if (verdict !== false) break;
      }
    } catch (error) {
      // The task may have finished between GetTask and the subscription (a terminal task takes
      // no subscriber, spec §3.1.6): read it again below.
      if (options.signal?.aborted) throw error;
    }
    if (verdict === false) task = await watched.getTask({ id: record.when.taskId });
    verdict = matches(task, record.when);
  }
  if (verdict !== true) {
    record.status = 'dropped';
    record.reason = `task ${task.id} ended ${task.status.state} without meeting the condition`;
    await options.store.put(record);
    return record;
  }
  const target = await connect(record.then.agent);
  // The messageId is the record's: a resend after a crash between send and put is a retry the
  // agent recognizes (spec §3.3.1), not a second request.
  const sent = await target.sendMessage({
    message: { ...record.then.message, messageId: `request-when-${record.id}` },
    configuration: { returnImmediately: true },
  });
  record.status = 'sent';
  if ('task' in sent) record.sentTaskId = sent.task.id;
  await options.store.put(record);
  return record;
}

function apply(task: Task, event: StreamResponse): Task {
  if ('task' in event) return event.task;
  if ('statusUpdate' in event) return { ...task, status: event.statusUpdate.status };
  if ('artifactUpdate' in event) {
    const artifacts = (task.artifacts ?? []).filter(
      (a) => a.artifactId !== event.artifactUpdate.artifact.artifactId,
    );
    return { ...task, artifacts: [...artifacts, event.artifactUpdate.artifact] };
  }
  return task;
}
