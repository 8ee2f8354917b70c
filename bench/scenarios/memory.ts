/**
 * Memory: heap and RSS per retained completed echo task (in process, N tasks, after GC), and per
 * open stream (a server holding M SendStreamingMessage streams of tasks that wait).
 */
import { fileURLToPath } from 'node:url';
import type { ProcessStats } from '../ipc.js';
import type { RetainedResult } from '../memory/retained.js';
import { Child } from '../proc.js';
import { A2AJS, KIT, kitServers, type BenchContext } from '../context.js';
import { bytes, fmt, median, ratio, type ScenarioResult } from '../report.js';

const SDKS = [
  { name: KIT, sdk: 'a2a-kit' },
  { name: A2AJS, sdk: 'a2a-js' },
] as const;

/** Runs the scenario. */
export async function memoryScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const tasks = options.smoke ? 300 : 20_000;
  const streams = options.smoke ? 10 : 1_000;
  const rounds = options.smoke ? 1 : Math.max(1, options.rounds);

  const retained = new Map<string, RetainedResult[]>();
  for (let round = 0; round < rounds; round++) {
    for (const { name, sdk } of SDKS) {
      ctx.log(`memory: ${tasks} retained tasks, ${name}`);
      const child = await Child.start({
        name: `retained ${name}`,
        script: fileURLToPath(new URL('../memory/retained.js', import.meta.url)),
        args: [`--sdk=${sdk}`],
        cpu: ctx.pinning?.server,
        nodeFlags: ['--expose-gc'],
      });
      try {
        const result = await child.call<RetainedResult>('measure', { count: tasks });
        retained.set(name, [...(retained.get(name) ?? []), result]);
      } finally {
        await child.stop();
      }
    }
  }

  const perStream = new Map<string, { heap: number; rss: number }>();
  const servers = await ctx.startServers('memory', [
    { name: A2AJS, script: 'a2ajs', gc: true },
    ...kitServers(ctx, true),
  ]);
  try {
    for (const [name, server] of servers) {
      ctx.log(`memory: ${streams} open streams, ${name}`);
      // Warm-up: one wave opened and released before measuring.
      await ctx.load.call('open', {
        url: server.url,
        binding: 'jsonrpc',
        count: Math.min(100, streams),
      });
      await server.call('release');
      await ctx.load.call('close');
      const before = await server.call<ProcessStats>('stats', { gc: true });
      await ctx.load.call('open', { url: server.url, binding: 'jsonrpc', count: streams });
      const after = await server.call<ProcessStats>('stats', { gc: true });
      await server.call('release');
      await ctx.load.call('close');
      perStream.set(name, {
        heap: (after.heapUsed - before.heapUsed) / streams,
        rss: (after.rss - before.rss) / streams,
      });
    }
  } finally {
    await ctx.stopServers(servers);
  }

  const rows: string[][] = [];
  const data: Record<string, unknown> = {};
  const heap = (name: string) => median((retained.get(name) ?? []).map((r) => r.heapPerTask));
  const rss = (name: string) => median((retained.get(name) ?? []).map((r) => r.rssPerTask));
  for (const { name } of SDKS) {
    data[`retained ${name}`] = { heapPerTask: heap(name), rssPerTask: rss(name) };
    rows.push([
      `retained completed task (${fmt(tasks)})`,
      name,
      bytes(heap(name)),
      bytes(rss(name)),
      name === A2AJS ? '' : ratio(heap(A2AJS) / heap(name)),
    ]);
  }
  for (const [name, m] of perStream) {
    data[`stream ${name}`] = m;
    const base = perStream.get(A2AJS);
    rows.push([
      `open stream + its task (${fmt(streams)})`,
      name,
      bytes(m.heap),
      bytes(m.rss),
      name === A2AJS || base === undefined ? '' : ratio(base.heap / m.heap),
    ]);
  }
  const kitHeap = heap(KIT);
  return {
    sections: [
      {
        title: 'Memory',
        columns: ['what', 'target', 'heap each', 'RSS each', 'a2a-js heap ÷ ours'],
        rows,
        note: "Growth after a full GC divided by the count. Retained tasks: in process, through each SDK's SendMessage handler, memory store.",
      },
    ],
    checks: [
      {
        target: '≤ 1 KB heap per retained completed echo task (memory store)',
        measured: bytes(kitHeap),
        pass: kitHeap <= 1024,
      },
    ],
    data,
  };
}
