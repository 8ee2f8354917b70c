/** Small helpers shared by the interop tests (our shapes: spec ProtoJSON). */
import type {
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskState,
} from '../../src/core/schemas/index.js';

/** What the `ask` behaviour of both interop agents asks. */
export const QUESTION = 'What is your name?';

/** The task of a SendMessage result (fails when the agent answered with a Message). */
export function taskOf(result: SendMessageResponse): Task {
  if (!('task' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result.task;
}

/** The rejection of `promise` (throws when it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** One word per stream event: `task:<state>`, `status:<state>`, `artifact` or `message`. */
export function eventKinds(events: readonly StreamResponse[]): string[] {
  return events.map((e) => {
    if ('task' in e) return `task:${e.task.status.state}`;
    if ('statusUpdate' in e) return `status:${e.statusUpdate.status.state}`;
    if ('artifactUpdate' in e) return 'artifact';
    return 'message';
  });
}

/** The task state the last state-carrying event of a stream announced. */
export function lastState(events: readonly StreamResponse[]): TaskState | undefined {
  let state: TaskState | undefined;
  for (const e of events) {
    if ('task' in e) state = e.task.status.state;
    if ('statusUpdate' in e) state = e.statusUpdate.status.state;
  }
  return state;
}

/** Polls `get` (every 10 ms, up to 5 s) until the task is in `state`. */
export async function untilState(get: () => Promise<Task>, state: TaskState): Promise<Task> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const task = await get();
    if (task.status.state === state) return task;
    if (Date.now() > deadline) {
      throw new Error(`task ${task.id} still ${task.status.state}, expected ${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A fetch that breaks the first SSE response it sees right after its `count`th event, as a dropped
 * connection does (the body errors like a reset socket); every other request goes through.
 */
export function cutAfterEvents(count: number): typeof fetch {
  let cut = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (cut || !type.startsWith('text/event-stream') || !response.body) return response;
    cut = true;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let seen = 0;
    let text = ''; // everything received so far
    let sent = 0; // how much of it was passed on
    let scanned = 0; // where the search for the next event boundary resumes
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) return controller.close();
        text += decoder.decode(next.value, { stream: true });
        let end = -1;
        while (seen < count && (end = text.indexOf('\n\n', scanned)) !== -1) {
          seen++;
          scanned = end + 2;
        }
        const upTo = seen < count ? text.length : scanned;
        controller.enqueue(encoder.encode(text.slice(sent, upTo)));
        sent = upTo;
        if (seen < count) return;
        controller.error(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }));
        await reader.cancel();
      },
      async cancel() {
        await reader.cancel();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** Gates that tests open by key, so a task finishes exactly when a test says so. */
export class Gates {
  private readonly waiters = new Map<string, () => void>();
  private readonly opened = new Set<string>();

  /** Resolves true once `key` is open (at once if it already is), false if `signal` aborts first. */
  wait(key: string, signal: AbortSignal): Promise<boolean> {
    if (this.opened.has(key)) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(key, () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  open(key: string): void {
    this.opened.add(key);
    this.waiters.get(key)?.();
    this.waiters.delete(key);
  }
}
