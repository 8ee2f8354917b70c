/**
 * The conformance suite every EventBus runs: per-task order, isolation between
 * tasks and between tenants (the same task id under two tenants, tenants made of characters a
 * broker's subjects reserve), unsubscribe, fan-out to several subscribers, a throwing listener,
 * and (for distributed buses) delivery across instances of an entry published right after
 * `subscribe` resolved.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamResponse } from '../core/schemas/index.js';
import type { EventBus, LogEntry } from '../stores/types.js';
import { agentText, artifactEvent, newTask, statusEvent, uniqueId } from './store-fixtures.js';

/** Options of {@link runEventBusSuite}. */
export interface EventBusSuiteOptions {
  /** Shown in the test names. */
  name: string;
  /** A new bus. Tests use fresh task ids, so buses may share an engine. */
  create: () => Promise<EventBus> | EventBus;
  /** Runs after each test once the buses are closed. */
  cleanup?: () => Promise<void> | void;
  /**
   * True when buses from separate `create()` calls reach each other (a message engine): adds the
   * cross-instance tests.
   */
  shared?: boolean;
  /** How long to wait for a delivery; default 5,000 ms. */
  timeoutMs?: number;
}

/** The tenant of the tests about something else: none. */
const NONE = '';

/**
 * Tenants a bus must keep apart, whatever it builds from them: none, plain, with the characters
 * NATS subjects reserve (`.`, `*`, `>`, whitespace), pairs that naive joining would merge with
 * the task id, a leading `~`, and non-ASCII.
 */
const TENANTS = [
  '',
  'acme',
  'a.b',
  'a',
  '*',
  '>',
  'with space',
  '\t',
  '~acme',
  'ünï',
  'x'.repeat(300),
];

/** Collects the entries a listener receives. */
function collector(): { entries: LogEntry[]; listener: (entry: LogEntry) => void } {
  const entries: LogEntry[] = [];
  return { entries, listener: (entry) => entries.push(entry) };
}

/** `count` entries of one task, seq 1..count, of varied kinds. */
function entries(taskId: string, count: number): LogEntry[] {
  const task = { ...newTask({}), id: taskId };
  return Array.from({ length: count }, (_, i): LogEntry => {
    const event: StreamResponse =
      i === 0
        ? { task }
        : i % 3 === 0
          ? { message: agentText(`note ${i}`) }
          : i % 3 === 1
            ? statusEvent(task, 'TASK_STATE_WORKING')
            : artifactEvent(
                task,
                { artifactId: 'a', parts: [{ text: `${i}` }, { data: { i } }] },
                { append: i > 2 },
              );
    return { seq: i + 1, event };
  });
}

/** Registers the EventBus conformance tests for one implementation. */
export function runEventBusSuite(options: EventBusSuiteOptions): void {
  const timeout = options.timeoutMs ?? 5_000;
  const until = (check: () => void) => vi.waitFor(check, { timeout, interval: 5 });

  describe(`EventBus conformance: ${options.name}`, () => {
    const open: EventBus[] = [];
    const bus = async (): Promise<EventBus> => {
      const created = await options.create();
      open.push(created);
      return created;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((b) => b.close()));
      await options.cleanup?.();
    });

    it('delivers the entries of a task intact and in publish order', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      const { entries: got, listener } = collector();
      await b.subscribe(NONE, taskId, listener);
      const sent = entries(taskId, 200);
      for (const entry of sent) await b.publish(NONE, taskId, entry);
      await until(() => expect(got).toHaveLength(200));
      expect(got).toEqual(sent);
    });

    it('delivers every entry to each of several subscribers', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      const listeners = [collector(), collector(), collector()];
      for (const l of listeners) await b.subscribe(NONE, taskId, l.listener);
      const sent = entries(taskId, 20);
      for (const entry of sent) await b.publish(NONE, taskId, entry);
      for (const l of listeners) await until(() => expect(l.entries).toEqual(sent));
    });

    it('keeps tasks apart', async () => {
      const b = await bus();
      const [x, y] = [uniqueId('task'), uniqueId('task')];
      const [forX, forY] = [collector(), collector()];
      await b.subscribe(NONE, x, forX.listener);
      await b.subscribe(NONE, y, forY.listener);
      const [sentX, sentY] = [entries(x, 10), entries(y, 10)];
      for (let i = 0; i < 10; i++) {
        await b.publish(NONE, x, sentX[i] as LogEntry);
        await b.publish(NONE, y, sentY[i] as LogEntry);
      }
      await until(() => expect(forX.entries).toHaveLength(10));
      await until(() => expect(forY.entries).toHaveLength(10));
      expect(forX.entries).toEqual(sentX);
      expect(forY.entries).toEqual(sentY);
    });

    it('keeps tenants apart: the same task id under different tenants', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      const got = TENANTS.map(() => collector());
      for (const [i, tenant] of TENANTS.entries())
        await b.subscribe(tenant, taskId, got[i]!.listener);
      // `a.b` + task vs `a` + `b.` + task: equal if a bus joined them with a dot.
      const dotted = collector();
      await b.subscribe('a', `b.${taskId}`, dotted.listener);
      const sent = TENANTS.map((_, i) => entries(taskId, i + 1));
      for (const [i, tenant] of TENANTS.entries()) {
        for (const entry of sent[i]!) await b.publish(tenant, taskId, entry);
      }
      for (const [i] of TENANTS.entries()) {
        await until(() => expect(got[i]!.entries).toHaveLength(i + 1));
      }
      // Once the last one has all of its own, a stray entry would have been delivered too.
      for (const [i] of TENANTS.entries()) expect(got[i]!.entries).toEqual(sent[i]);
      expect(dotted.entries).toEqual([]);
    });

    it('stops delivering to a listener once it unsubscribes', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      const [gone, stays] = [collector(), collector()];
      const stop = await b.subscribe(NONE, taskId, gone.listener);
      await b.subscribe(NONE, taskId, stays.listener);
      const [first, second, third] = entries(taskId, 3) as [LogEntry, LogEntry, LogEntry];
      await b.publish(NONE, taskId, first);
      await until(() => expect(gone.entries).toHaveLength(1));
      stop();
      stop(); // a second call is harmless
      await b.publish(NONE, taskId, second);
      await b.publish(NONE, taskId, third);
      // Once the remaining listener has both, the unsubscribed one would have had them too.
      await until(() => expect(stays.entries).toEqual([first, second, third]));
      expect(gone.entries).toEqual([first]);
    });

    it('keeps delivering to the other listeners when one throws', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      let thrown = 0;
      await b.subscribe(NONE, taskId, () => {
        thrown++;
        throw new Error('listener failure');
      });
      const ok = collector();
      await b.subscribe(NONE, taskId, ok.listener);
      const sent = entries(taskId, 5);
      for (const entry of sent) await b.publish(NONE, taskId, entry);
      await until(() => expect(ok.entries).toEqual(sent));
      expect(thrown).toBe(5);
    });

    it('receives an entry published right after subscribe resolved', async () => {
      const b = await bus();
      const taskId = uniqueId('task');
      const got = collector();
      await b.subscribe(NONE, taskId, got.listener);
      const [entry] = entries(taskId, 1) as [LogEntry];
      await b.publish(NONE, taskId, entry);
      await until(() => expect(got.entries).toEqual([entry]));
    });

    if (options.shared) {
      it('delivers across instances: an entry published on B right after A subscribed', async () => {
        const [a, b] = [await bus(), await bus()];
        const taskId = uniqueId('task');
        const got = collector();
        await a.subscribe(NONE, taskId, got.listener);
        const sent = entries(taskId, 50);
        for (const entry of sent) await b.publish(NONE, taskId, entry);
        await until(() => expect(got.entries).toHaveLength(50));
        expect(got.entries).toEqual(sent);
      });

      it('keeps tenants apart across instances', async () => {
        const [a, b] = [await bus(), await bus()];
        const taskId = uniqueId('task');
        const [plain, dotted, none] = [collector(), collector(), collector()];
        await a.subscribe('acme', taskId, plain.listener);
        await a.subscribe('a.b *>', taskId, dotted.listener);
        await a.subscribe('', taskId, none.listener);
        const [forPlain, forDotted] = [entries(taskId, 3), entries(taskId, 4)];
        for (const entry of forDotted) await b.publish('a.b *>', taskId, entry);
        for (const entry of forPlain) await b.publish('acme', taskId, entry);
        await until(() => expect(plain.entries).toHaveLength(3));
        await until(() => expect(dotted.entries).toHaveLength(4));
        expect(plain.entries).toEqual(forPlain);
        expect(dotted.entries).toEqual(forDotted);
        expect(none.entries).toEqual([]);
      });

      it('keeps tasks apart and stops after unsubscribe across instances', async () => {
        const [a, b] = [await bus(), await bus()];
        const [x, y] = [uniqueId('task'), uniqueId('task')];
        const [forX, gone] = [collector(), collector()];
        await a.subscribe(NONE, x, forX.listener);
        const stop = await a.subscribe(NONE, y, gone.listener);
        stop();
        await b.publish(NONE, y, entries(y, 1)[0] as LogEntry);
        const sent = entries(x, 3);
        for (const entry of sent) await b.publish(NONE, x, entry);
        await until(() => expect(forX.entries).toEqual(sent));
        expect(gone.entries).toEqual([]);
      });
    }
  });
}
