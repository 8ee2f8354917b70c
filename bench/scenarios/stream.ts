/**
 * SendStreamingMessage of the echo task (4 events: task, working, artifact, completed) over
 * JSON-RPC and HTTP+JSON: streams/s, events/s and time to first event, N concurrent streams,
 * next to the node:http ceiling answering four fixed SSE events.
 */
import type { Binding } from '../load/requests.js';
import type { StreamLoadResult, StreamLoadSpec } from '../load/sse-load.js';
import { A2AJS, CEILING, KIT, kitServers, rotate, type BenchContext } from '../context.js';
import { fmt, median, ratio, type Check, type ScenarioResult } from '../report.js';

const BINDINGS: readonly Binding[] = ['jsonrpc', 'rest'];
const LABEL: Record<Binding, string> = { jsonrpc: 'JSON-RPC', rest: 'HTTP+JSON' };

/** Runs the scenario. */
export async function streamScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const servers = await ctx.startServers('stream', [
    { name: CEILING, script: 'ceiling' },
    { name: A2AJS, script: 'a2ajs' },
    ...kitServers(options),
  ]);
  try {
    const names = [...servers.keys()];
    const run = (name: string, binding: Binding, durationSec: number) => {
      const spec: StreamLoadSpec = {
        url: servers.get(name)?.url ?? '',
        binding,
        text: 'hello',
        concurrency: options.connections,
        durationSec,
      };
      return ctx.load.call<StreamLoadResult>('streams', spec);
    };
    if (!options.smoke) {
      ctx.log('stream: warming up');
      for (const binding of BINDINGS) for (const name of names) await run(name, binding, 2);
    }
    const samples = new Map<string, StreamLoadResult[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`stream: round ${round + 1}/${options.rounds}`);
      for (const binding of BINDINGS) {
        for (const name of rotate(names, round)) {
          const result = await run(name, binding, options.durationSec);
          if (result.failures > 0 || result.streams === 0) {
            throw new Error(`stream ${binding} ${name}: ${result.failures} failed streams`);
          }
          const key = `${binding} ${name}`;
          samples.set(key, [...(samples.get(key) ?? []), result]);
        }
      }
    }
    const rows: string[][] = [];
    const checks: Check[] = [];
    const data: Record<string, unknown> = {};
    for (const binding of BINDINGS) {
      const med = (name: string) => {
        const runs = samples.get(`${binding} ${name}`) ?? [];
        return {
          streams: median(runs.map((r) => r.streams / r.seconds)),
          events: median(runs.map((r) => r.events / r.seconds)),
          ttfeP50: median(runs.map((r) => r.ttfeP50)),
          ttfeP99: median(runs.map((r) => r.ttfeP99)),
        };
      };
      const base = med(A2AJS);
      const ceiling = med(CEILING);
      for (const name of names) {
        const m = med(name);
        data[`${binding} ${name}`] = m;
        rows.push([
          LABEL[binding],
          name,
          fmt(m.streams),
          fmt(m.events),
          fmt(m.ttfeP50, 2),
          fmt(m.ttfeP99, 2),
          ratio(m.streams / ceiling.streams),
          name === CEILING ? '' : ratio(m.streams / base.streams),
        ]);
      }
      const kit = med(KIT);
      checks.push({
        target: `SendStreamingMessage ${LABEL[binding]} ≥ 6× @a2a-js/sdk streams/s`,
        measured: `${ratio(kit.streams / base.streams)} (${fmt(kit.streams)} vs ${fmt(base.streams)} streams/s)`,
        pass: kit.streams / base.streams >= 6,
      });
    }
    return {
      sections: [
        {
          title: `SendStreamingMessage (echo task, 4 events per stream, ${options.connections} concurrent streams)`,
          columns: [
            'binding',
            'target',
            'streams/s',
            'events/s',
            'TTFE p50 ms',
            'TTFE p99 ms',
            '× ceiling',
            '× a2a-js',
          ],
          rows,
          note:
            'TTFE: time from sending the request to the first complete SSE event. The ceiling ' +
            'answers every stream with four fixed events at once.',
        },
      ],
      checks,
      data,
    };
  } finally {
    await ctx.stopServers(servers);
  }
}
