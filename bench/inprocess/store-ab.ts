/**
 * A/B of two builds of the memory store alone, on what the blocking echo send asks of it: per
 * echo task a findByMessageId, the create (a submitted task with the user message) and, 50 tasks
 * later, one append of working + artifact + completed; measured past the store's 10,000 finished
 * tasks, so packing and eviction are part of every task (`store`); and packTask of one echo log
 * (`pack`). CPU µs per task, each figure from its own child process, the two builds alternating
 * round by round; medians. The objects are made in the loop (their cost is in both builds).
 *
 * `node bench/build.mjs && node dist/bench-run/bench/inprocess/store-ab.js --base=DIR
 * [--rounds=7]` (DIR: a built checkout of the other commit, as for build-ab.js).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import type * as PackedModule from '../../src/stores/memory/packed-task.js';
import type * as StoreModule from '../../src/stores/memory/task-store.js';

type Kind = 'store' | 'pack';
const IN_FLIGHT = 50;
const WARMUP = 11_000;
const TASKS = 30_000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const START = Date.parse('2026-12-03T07:00:00.000Z');
/** Timestamps as a server makes them: a few tasks per millisecond. */
const tsOf = (i: number) => new Date(START + Math.floor(i / 3)).toISOString();

/** Echo task `i`: its creation snapshot, the one append of its run, its messageId. */
function echo(i: number) {
  const id = `01a23ad4-${hex(i >>> 12, 4)}-7${hex(i & 0xfff, 3)}-af21-8c2899659488`;
  const contextId = `01a23ad4-${hex(i >>> 12, 4)}-7${hex(i & 0xfff, 3)}-8ad4-56033b45cdb4`;
  const messageId = `seed-${i}-4i78tb74fh3`;
  const created = tsOf(i);
  const done = tsOf(i + IN_FLIGHT);
  const task: Task = {
    id,
    contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: created },
    history: [{ messageId, role: 'ROLE_USER', parts: [{ text: 'hello' }], taskId: id, contextId }],
  };
  const status = (state: 'TASK_STATE_WORKING' | 'TASK_STATE_COMPLETED'): StreamResponse => ({
    statusUpdate: { taskId: id, contextId, status: { state, timestamp: done } },
  });
  const artifact = {
    artifactId: `a-${hex(i, 12)}`,
    name: 'echo',
    parts: [{ text: 'echo: hello' }],
  };
  const events: StreamResponse[] = [
    status('TASK_STATE_WORKING'),
    { artifactUpdate: { taskId: id, contextId, artifact } },
    status('TASK_STATE_COMPLETED'),
  ];
  return { task, events, messageId, done };
}

async function worker(root: string, kind: Kind): Promise<number> {
  const dist = join(root, 'dist/bench-run/src/stores/memory');
  if (kind === 'pack') {
    const { packTask } = (await import(join(dist, 'packed-task.js'))) as typeof PackedModule;
    const logs = Array.from({ length: 500 }, (_, i) => {
      const { task, events, messageId, done } = echo(i);
      const final = {
        ...task,
        status: { state: 'TASK_STATE_COMPLETED' as const, timestamp: done },
      };
      const keys = { id: task.id, contextId: task.contextId, ts: done, messageId };
      return { log: [{ task }, ...events], final, keys };
    });
    let size = 0;
    const run = () => {
      for (const { log, final, keys } of logs) {
        const packed = packTask(log, final, keys);
        size += typeof packed === 'string' ? packed.length : packed.log.length;
      }
    };
    for (let r = 0; r < 200; r++) run();
    const before = process.cpuUsage();
    for (let r = 0; r < 400; r++) run();
    const used = process.cpuUsage(before);
    if (size === 0) throw new Error('nothing packed');
    return (used.user + used.system) / (400 * logs.length);
  }
  const { MemoryTaskStore } = (await import(join(dist, 'task-store.js'))) as typeof StoreModule;
  const store = new MemoryTaskStore();
  const scope = { tenant: '', owner: 'anonymous' };
  const ring: ReturnType<typeof echo>[] = [];
  const step = (i: number) => {
    const next = echo(i);
    ring[i % (IN_FLIGHT + 1)] = next;
    void store.findByMessageId(scope, next.messageId);
    void store.create(scope, next.task, { messageId: next.messageId, fingerprint: '@0aa' });
    const done = ring[(i - IN_FLIGHT) % (IN_FLIGHT + 1)];
    if (i >= IN_FLIGHT && done) void store.append(scope, done.task.id, done.events, 1);
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < WARMUP; i++) step(i);
  await turn();
  const before = process.cpuUsage();
  for (let i = WARMUP; i < WARMUP + TASKS; i++) {
    step(i);
    if (i % 64 === 0) await turn(); // the store packs at the end of a turn
  }
  const used = process.cpuUsage(before);
  await store.close();
  return (used.user + used.system) / TASKS;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

if (process.argv[2] === '--worker') {
  const [root, kind] = process.argv.slice(3) as [string, Kind];
  process.stdout.write(`${await worker(root, kind)}\n`);
  process.exit(0);
} else {
  const arg = (name: string) =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const base = arg('base');
  if (base === undefined) throw new Error('give --base=DIR, a built checkout of the other commit');
  const rounds = Number(arg('rounds') ?? 7);
  const here = dirname(fileURLToPath(import.meta.url));
  const builds = { base: resolve(base), this: resolve(here, '../../../..') };
  const script = fileURLToPath(import.meta.url);
  console.log('what    base µs  this µs  this/base');
  for (const kind of ['store', 'pack'] as const) {
    const cpu: Record<string, number[]> = { base: [], this: [] };
    for (let r = 0; r < rounds; r++) {
      // Alternating which build goes first, round by round.
      const order = r % 2 === 0 ? (['base', 'this'] as const) : (['this', 'base'] as const);
      for (const name of order) {
        const out = execFileSync(process.execPath, [script, '--worker', builds[name], kind]);
        cpu[name]?.push(Number(String(out).trim()));
      }
    }
    const [b, t] = [median(cpu.base ?? []), median(cpu.this ?? [])];
    console.log(
      `${kind.padEnd(6)} ${b.toFixed(2).padStart(8)} ${t.toFixed(2).padStart(8)}  ${(t / b).toFixed(3)}`,
    );
  }
}
