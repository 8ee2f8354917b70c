/**
 * GetTask and ListTasks (first page of 50) against an a2a-kit memory store holding 1,000 and
 * 100,000 completed tasks, one request at a time: the page time must not depend on the number
 * of stored tasks.
 */
import type { HttpLoadResult } from '../load/http-load.js';
import { A2A_HEADERS } from '../load/requests.js';
import { KIT, kitName, rotate, type BenchContext, type ServerSpec } from '../context.js';
import { fmt, generatorNote, median, ratio, type Check, type ScenarioResult } from '../report.js';

const OPERATIONS = ['ListTasks', 'GetTask'] as const;

/** Runs the scenario. */
export async function storeScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const small = options.smoke ? 100 : 1_000;
  const large = options.smoke ? 500 : 100_000;
  const specs: ServerSpec[] = [];
  for (const store of ['memory', ...options.stores]) {
    for (const count of [small, large]) {
      specs.push({
        name: `${kitName(store)} ${fmt(count)}`,
        script: 'kit',
        args: [`--store=${store}`, `--max-tasks=${count * 2}`],
      });
    }
  }
  const servers = await ctx.startServers('store', specs);
  try {
    const lastIds = new Map<string, string>();
    for (const [name, server] of servers) {
      const count = name.endsWith(` ${fmt(large)}`) ? large : small;
      ctx.log(`store: seeding ${name}`);
      lastIds.set(name, await server.call<string>('seed', { count }));
    }
    const names = [...servers.keys()];
    const run = (name: string, operation: (typeof OPERATIONS)[number], durationSec: number) => {
      const server = servers.get(name);
      const path =
        operation === 'ListTasks'
          ? '/a2a/rest/tasks?pageSize=50'
          : `/a2a/rest/tasks/${lastIds.get(name)}`;
      return ctx.load.call<HttpLoadResult>('http', {
        url: `${server?.url}${path}`,
        method: 'GET',
        headers: A2A_HEADERS,
        connections: 1,
        durationSec,
      });
    };
    if (!options.smoke) {
      for (const op of OPERATIONS) for (const name of names) await run(name, op, 1);
    }
    const samples = new Map<string, HttpLoadResult[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`store: round ${round + 1}/${options.rounds}`);
      for (const op of OPERATIONS) {
        for (const name of rotate(names, round)) {
          const result = await run(name, op, options.durationSec);
          if (result.failures > 0)
            throw new Error(`store ${op} ${name}: ${result.failures} failures`);
          const key = `${op} ${name}`;
          samples.set(key, [...(samples.get(key) ?? []), result]);
        }
      }
    }
    const rows: string[][] = [];
    const checks: Check[] = [];
    const data: Record<string, unknown> = {};
    const med = (op: string, name: string) => {
      const runs = samples.get(`${op} ${name}`) ?? [];
      const rps = median(runs.map((r) => r.rps));
      return { rps, pageMs: 1000 / rps, p99: median(runs.map((r) => r.p99)) };
    };
    for (const op of OPERATIONS) {
      for (const store of ['memory', ...options.stores]) {
        const base = med(op, `${kitName(store)} ${fmt(small)}`);
        for (const count of [small, large]) {
          const name = `${kitName(store)} ${fmt(count)}`;
          const m = med(op, name);
          data[`${op} ${name}`] = m;
          rows.push([
            op,
            kitName(store),
            fmt(count),
            fmt(m.rps),
            fmt(m.pageMs, 3),
            fmt(m.p99, 2),
            ratio(m.pageMs / base.pageMs),
          ]);
        }
      }
      if (op !== 'ListTasks') continue; // the target of issue 8; GetTask is shown for context
      const a = med(op, `${KIT} ${fmt(small)}`);
      const b = med(op, `${KIT} ${fmt(large)}`);
      checks.push({
        target: `ListTasks page time independent of stored tasks (${fmt(large)} vs ${fmt(small)}, within 20 %)`,
        measured: `${fmt(b.pageMs, 3)} vs ${fmt(a.pageMs, 3)} ms (${ratio(b.pageMs / a.pageMs)})`,
        pass: b.pageMs / a.pageMs <= 1.2,
      });
    }
    return {
      sections: [
        {
          title: 'GetTask and ListTasks (HTTP+JSON, first page of 50, one request at a time)',
          columns: [
            'operation',
            'target',
            'stored tasks',
            'req/s',
            'mean ms',
            'p99 ms',
            '× fewer tasks',
          ],
          rows,
          note:
            'mean ms = 1000 / req/s at one connection: the time of one page, network included.' +
            generatorNote([...samples.values()].flat()),
        },
      ],
      checks,
      data,
    };
  } finally {
    await ctx.stopServers(servers);
  }
}
