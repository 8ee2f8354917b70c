/**
 * FIPA Request-When over A2A (docs/extensions/delegation.md §3): "when task T (at agent A)
 * reaches a state, or produces an artifact named X, send message M to agent B". Built on
 * SubscribeToTask (spec §3.1.6) with a GetTask check first. The request lives in a
 * {@link RequestWhenStore} (memory, SQLite or PostgreSQL: src/stores/*\/request-when.ts) with the
 * last stream event id seen, so `resumeRequestWhen` re-arms it after the delegating process
 * restarts and continues the stream after that event (`Last-Event-ID`). The send is claimed in
 * the store first, so `then` fires once even when two resumed processes watch one record.
 */
import { A2AClient } from '../client/client.js';
import { newId } from '../core/ids.js';
import type { Message, StreamResponse, Task } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';
import type {
  RequestWhenCondition,
  RequestWhenRecord,
  RequestWhenStore,
} from '../stores/request-when-types.js';

export type { RequestWhenRecord, RequestWhenStore } from '../stores/request-when-types.js';
export { MemoryRequestWhenStore } from '../stores/memory/request-when.js';

/** The condition on the watched task; `agent` may come from the options instead. */
export type WhenCondition = Omit<RequestWhenCondition, 'agent'> & { agent?: string };

/** Options of {@link requestWhen}. */
export interface RequestWhenOptions {
  store: RequestWhenStore;
  /** The watched task's agent URL (or `when.agent`). */
  agent?: string;
  when: WhenCondition;
  then: { agent: string; message: Message };
  connect?: (url: string) => Promise<A2AClient>;
  signal?: AbortSignal;
}

type WatchOptions = Pick<RequestWhenOptions, 'store' | 'connect' | 'signal'>;

/** Records the request, then watches; resolves with the record once it was sent or dropped. */
export async function requestWhen(options: RequestWhenOptions): Promise<RequestWhenRecord> {
  const agent = options.when.agent ?? options.agent;
  if (agent === undefined) {
    throw new TypeError('requestWhen: name the watched agent (`agent` or `when.agent`)');
  }
  const record: RequestWhenRecord = {
    id: newId(),
    when: { ...options.when, agent },
    then: options.then,
    status: 'waiting',
  };
  await options.store.put(record);
  return watch(record, options);
}

/** Re-arms every pending request of `store` (after a restart); resolves when all settle. */
export async function resumeRequestWhen(options: WatchOptions): Promise<RequestWhenRecord[]> {
  const pending = await options.store.pending();
  return Promise.all(pending.map((r) => watch(r, options)));
}

function matches(task: Task, when: RequestWhenCondition): boolean | 'never' {
  const wanted = when.state ?? 'TASK_STATE_COMPLETED';
  if (task.status.state !== wanted) return isTerminal(task.status.state) ? 'never' : false;
  return (
    when.artifactName === undefined ||
    (task.artifacts ?? []).some((a) => a.name === when.artifactName)
  );
}

async function watch(record: RequestWhenRecord, options: WatchOptions): Promise<RequestWhenRecord> {
  const connect = options.connect ?? ((url: string) => A2AClient.connect(url));
  if (record.status === 'waiting') {
    const verdict = await condition(record, options, connect);
    if (verdict !== true) {
      record.status = 'dropped';
      record.reason = verdict;
      await options.store.put(record);
      return record;
    }
    // Only one watcher moves the record on to `sending`: the others leave it to that one.
    if (!(await options.store.claim(record.id))) {
      return (await options.store.get(record.id)) ?? record;
    }
    record.status = 'sending';
  }
  // `sending`: claimed now, or before a crash; the messageId is the record's, so a resend after a
  // crash between send and put is a retry an agent that indexes messageIds recognizes (spec
  // §3.3.1) rather than a second request.
  const target = await connect(record.then.agent);
  const sent = await target.sendMessage({
    message: { ...record.then.message, messageId: `request-when-${record.id}` },
    configuration: { returnImmediately: true },
  });
  record.status = 'sent';
  if ('task' in sent) record.sentTaskId = sent.task.id;
  await options.store.put(record);
  return record;
}

/** Watches until the condition holds (true) or cannot any more (why not). */
async function condition(
  record: RequestWhenRecord,
  options: WatchOptions,
  connect: (url: string) => Promise<A2AClient>,
): Promise<true | string> {
  const { when } = record;
  const watched = await connect(when.agent);
  let task = await watched.getTask({ id: when.taskId });
  let verdict = matches(task, when);
  if (verdict === false) {
    try {
      const stream = watched.subscribeToTask(
        { id: when.taskId },
        {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(record.lastEventId !== undefined ? { lastEventId: record.lastEventId } : {}),
        },
      );
      for await (const event of stream) {
        task = apply(task, event);
        const at = stream.lastEventId;
        if (at !== undefined && at !== record.lastEventId) {
          record.lastEventId = at;
          await options.store.seen(record.id, at);
        }
        verdict = matches(task, when);
        if (verdict !== false) break;
      }
    } catch (error) {
      // The task may have finished between GetTask and the subscription (a terminal task takes
      // no subscriber, spec §3.1.6): read it again below.
      if (options.signal?.aborted) throw error;
    }
    // Stopped (the delegating process shuts down): the record stays `waiting` for a resume.
    if (options.signal?.aborted) throw abortError(options.signal);
    if (verdict === false) task = await watched.getTask({ id: when.taskId });
    verdict = matches(task, when);
  }
  if (verdict === true) return true;
  return `task ${task.id} ended ${task.status.state} without meeting the condition`;
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

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('request-when watch aborted');
}
