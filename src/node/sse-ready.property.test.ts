/**
 * The ready path of a server stream proven equal to the general one (fast-check): a task stream
 * over the memory store, whose events() answers at once, written by the node writer
 * (src/http/node-io.ts: settleReady, nextReady, bursts, backpressure) gives the same SSE text as
 * the same stream over a store whose events() is a promise, read frame by frame with `next()`
 * alone — for any events, any split between events already recorded when the stream opens and
 * events that come live, any catch-up page size, any pattern of refused writes, the log read
 * before subscribing (`readFirst`) or after.
 */
import fc from 'fast-check';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';
import { encodeSse } from '../http/sse-encode.js';
import { writeNodeResponse, type NodeResponseLike } from '../http/node-io.js';
import { openTaskStream } from '../server/task-stream.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { WriteCoalescer } from './write-coalescing.js';

const scope: Scope = { tenant: '', owner: '' };
const sse = {
  keepAliveMs: 0,
  data: (item: { event: unknown }) => JSON.stringify(item.event),
  errorFrame: () => 'error\n\n',
};

function chunk(id: string, i: number, size: number): StreamResponse {
  const artifact = { artifactId: `a${i}`, parts: [{ text: 'x'.repeat(size) }] };
  return { artifactUpdate: { taskId: id, contextId: 'c', artifact } };
}

/** The task `id` with `before` recorded; `live()` records (and publishes) the rest, a turn apart. */
function recorded(id: string, sizes: readonly number[], split: number) {
  const store = new MemoryTaskStore();
  const bus = new MemoryEventBus();
  const task: Task = { id, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
  void store.create(scope, task);
  const events: StreamResponse[] = sizes.map((size, i) => chunk(id, i, size));
  events.push({
    statusUpdate: { taskId: id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
  });
  let seq = 1;
  const record = (event: StreamResponse) => {
    void store.append(scope, id, [event], seq);
    seq++;
    bus.publish('', id, { seq, event });
  };
  const cut = Math.min(split, events.length);
  for (const event of events.slice(0, cut)) record(event);
  const live = async () => {
    for (const event of events.slice(cut)) {
      await new Promise((r) => setImmediate(r));
      record(event);
    }
  };
  return { store, bus, live };
}

/** A stand-in response: records what is written; refuses writes as `refusals` says. */
function response(refusals: readonly boolean[]) {
  let text = '';
  let writes = 0;
  const res = new EventEmitter() as EventEmitter & NodeResponseLike & { done: Promise<string> };
  let finish!: (text: string) => void;
  Object.assign(res, {
    destroyed: false,
    writableFinished: false,
    writableNeedDrain: false,
    done: new Promise<string>((r) => (finish = r)),
    writeHead: () => res,
    flushHeaders: () => undefined,
    write(chunk: string) {
      text += chunk;
      const refused = refusals[writes++ % Math.max(1, refusals.length)] === true;
      if (refused) {
        Object.assign(res, { writableNeedDrain: true });
        setImmediate(() => {
          Object.assign(res, { writableNeedDrain: false });
          res.emit('drain');
        });
      }
      return !refused;
    },
    end(chunk?: string) {
      if (chunk !== undefined) text += chunk;
      Object.assign(res, { writableFinished: true });
      res.emit('close');
      finish(text);
    },
  });
  return res;
}

describe('a server stream written from what is ready', () => {
  it('gives the SSE text of the general path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 9000 }), { maxLength: 12 }),
        fc.nat({ max: 14 }),
        fc.constantFrom(undefined, 300, 20_000),
        fc.array(fc.boolean(), { maxLength: 4 }),
        fc.boolean(),
        async (sizes, split, maxPageBytes, refusals, readFirst) => {
          const pages = maxPageBytes === undefined ? {} : { maxPageBytes };
          const open = (store: TaskStore, bus: MemoryEventBus, first = false) =>
            openTaskStream({
              store,
              bus,
              scope,
              taskId: 't',
              start: { mode: 'replay', afterSeq: 0 },
              closeWhen: isTerminal,
              readFirst: first,
              ...pages,
            });

          // General: events() a promise, every frame through next().
          const a = recorded('t', sizes, split);
          const raw: TaskStore = a.store;
          const slow = Object.assign(Object.create(a.store) as TaskStore, {
            events: (...args: Parameters<TaskStore['events']>) =>
              Promise.resolve(raw.events(...args)),
          });
          const general = encodeSse(await open(slow, a.bus), sse);
          const reading = (async () => {
            let text = '';
            for (;;) {
              const next = await general.next();
              if (next.done === true) return text;
              text += next.value;
            }
          })();
          await a.live();
          const expected = await reading;

          // Ready path: the memory store as it is, written by the node writer.
          const b = recorded('t', sizes, split);
          const res = response(refusals);
          const body = encodeSse(await open(b.store, b.bus, readFirst), sse);
          const writing = writeNodeResponse(
            res,
            { status: 200, headers: {}, body },
            {
              flushOn: new WriteCoalescer((error) => {
                throw error;
              }).later,
            },
          );
          await b.live();
          await writing;
          expect(await res.done).toBe(expected);
          expect(b.bus.activeTasks).toBe(0); // unsubscribed
        },
      ),
      { numRuns: 120 },
    );
  });
});
