/**
 * A long task: WORKING, N chunks appended to one artifact, COMPLETED, streamed to one client.
 * Cost per event = the server's CPU time per task minus that of a task with no chunks, divided
 * by N: the marginal cost of one event in a task that already holds up to N of them. It must
 * not grow with N (a long task costs the same per event as a short one).
 */
import type { StreamLoadResult } from '../load/sse-load.js';
import type { ProcessStats } from '../ipc.js';
import { A2AJS, KIT, kitServers, rotate, type BenchContext } from '../context.js';
import { fmt, median, ratio, type ScenarioResult } from '../report.js';

const SIZES = [0, 10, 100, 1_000, 10_000] as const;
/** @a2a-js/sdk copies the whole task per event (quadratic): its largest size is skipped. */
const A2AJS_MAX = 1_000;
/** Alternating baseline/size slices per measurement. */
const SLICES = 5;

/** Runs the scenario. */
export async function longScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const sizes = options.smoke ? [0, 10, 100] : [...SIZES];
  // Events per measurement (spread over as many tasks as needed), at least 3 tasks each.
  const budget = options.smoke ? 200 : 20_000;
  const tasksFor = (name: string, n: number): number => {
    if (name === A2AJS && n >= A2AJS_MAX) return 3; // quadratic: seconds per task
    return n === 0 ? tasksFor(name, 10) : Math.max(3, Math.ceil(budget / n));
  };
  const servers = await ctx.startServers('long', [
    { name: A2AJS, script: 'a2ajs' },
    ...kitServers(ctx),
  ]);
  try {
    const names = [...servers.keys()];
    const run = async (name: string, n: number, streams: number) => {
      const server = servers.get(name);
      if (server === undefined) throw new Error(`no server ${name}`);
      const before = await server.call<ProcessStats>('stats', { gc: false });
      const result = await ctx.load.call<StreamLoadResult>('streams', {
        url: server.url,
        binding: 'jsonrpc',
        text: `events ${n}`,
        concurrency: 1,
        streams,
      });
      const after = await server.call<ProcessStats>('stats', { gc: false });
      if (result.failures > 0)
        throw new Error(`long ${name} ${n}: ${result.failures} failed streams`);
      // Every stream carries task, working, N chunks, completed.
      if (result.events !== result.streams * (n + 3)) {
        throw new Error(`long ${name} ${n}: ${result.events} events in ${result.streams} streams`);
      }
      return { cpu: after.cpuMicros - before.cpuMicros, ...result };
    };
    // Each size is measured against a task-with-no-chunks baseline on the same server, in
    // alternating slices (baseline, size, baseline, size, ...), so drift on a busy machine
    // falls on both alike; at 10 events the difference is small next to the per-task cost.
    const measure = async (name: string, n: number) => {
      const tasks = tasksFor(name, n);
      const slices = Math.min(SLICES, tasks);
      const total = {
        base: 0,
        baseStreams: 0,
        baseEvents: 0,
        baseSeconds: 0,
        cpu: 0,
        streams: 0,
        events: 0,
        seconds: 0,
      };
      for (let i = 0; i < slices; i++) {
        const count = Math.round((tasks * (i + 1)) / slices) - Math.round((tasks * i) / slices);
        const base = await run(name, 0, count);
        const sample = await run(name, n, count);
        total.base += base.cpu;
        total.baseStreams += base.streams;
        total.baseEvents += base.events;
        total.baseSeconds += base.seconds;
        total.cpu += sample.cpu;
        total.streams += sample.streams;
        total.events += sample.events;
        total.seconds += sample.seconds;
      }
      const base = total.base / total.baseStreams;
      return {
        cpuPerTask: total.cpu / total.streams,
        eventsPerSec: total.events / total.seconds,
        base,
        baseEventsPerSec: total.baseEvents / total.baseSeconds,
      };
    };
    const samples = new Map<string, { cpuPerTask: number; eventsPerSec: number; base: number }[]>();
    const rounds = options.rounds + (options.smoke ? 0 : 1); // the first full round warms up
    for (let round = 0; round < rounds; round++) {
      ctx.log(`long: round ${round + 1}/${rounds}`);
      for (const n of sizes) {
        if (n === 0) continue;
        for (const name of rotate(names, round)) {
          if (name === A2AJS && n > A2AJS_MAX) continue;
          const sample = await measure(name, n);
          if (round === 0 && !options.smoke) continue;
          // The 0 row shows the baseline of the smallest size: as many tasks as that size has,
          // where the larger sizes pair a handful.
          const base = {
            ...sample,
            cpuPerTask: sample.base,
            eventsPerSec: sample.baseEventsPerSec,
          };
          for (const [size, s] of [
            ...(n === sizes[1] ? [[0, base] as const] : []),
            [n, sample] as const,
          ]) {
            const key = `${size} ${name}`;
            samples.set(key, [...(samples.get(key) ?? []), s]);
          }
        }
      }
    }
    const cpu = (name: string, n: number) =>
      median((samples.get(`${n} ${name}`) ?? []).map((s) => s.cpuPerTask));
    const perEvent = (name: string, n: number) =>
      median((samples.get(`${n} ${name}`) ?? []).map((s) => (s.cpuPerTask - s.base) / n));
    const rows: string[][] = [];
    const data: Record<string, unknown> = {};
    for (const n of sizes) {
      for (const name of names) {
        if (!samples.has(`${n} ${name}`)) continue;
        const each = n === 0 ? NaN : perEvent(name, n);
        const wall = median((samples.get(`${n} ${name}`) ?? []).map((s) => s.eventsPerSec));
        data[`${n} ${name}`] = {
          cpuPerTaskMicros: cpu(name, n),
          microsPerEvent: each,
          eventsPerSec: wall,
        };
        rows.push([
          fmt(n),
          name,
          fmt(cpu(name, n) / 1000, 3),
          fmt(each, 2),
          fmt(wall),
          name === A2AJS || !samples.has(`${n} ${A2AJS}`) ? '' : ratio(perEvent(A2AJS, n) / each),
        ]);
      }
    }
    const small = perEvent(KIT, 10);
    const large = perEvent(KIT, sizes[sizes.length - 1] as number);
    const change = large / small - 1;
    return {
      sections: [
        {
          title: 'Long task: N artifact chunks streamed (JSON-RPC, one stream at a time)',
          columns: [
            'events',
            'target',
            'server CPU ms/task',
            'µs/event',
            'events/s',
            'a2a-js µs/event ÷ ours',
          ],
          rows,
          note:
            'µs/event = (server CPU per task − CPU per task with 0 chunks, measured in alternating ' +
            'slices with it) / N. ' +
            `@a2a-js/sdk is skipped above ${fmt(A2AJS_MAX)} events (it copies the whole task per event).`,
        },
      ],
      checks: [
        {
          target: `cost per event flat within 20 % from 10 to ${fmt(sizes[sizes.length - 1] as number)} events`,
          measured: `${fmt(small, 2)} → ${fmt(large, 2)} µs/event (${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} %)`,
          pass: Math.abs(change) <= 0.2,
        },
      ],
      data,
    };
  } finally {
    await ctx.stopServers(servers);
  }
}
