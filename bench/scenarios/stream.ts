/**
 * SendStreamingMessage of the echo task (4 events: task, working, artifact, completed) over
 * JSON-RPC and HTTP+JSON: streams/s, events/s and time to first event, N concurrent streams,
 * next to the node:http ceiling answering four fixed SSE events.
 */
import type { StreamLoadResult, StreamLoadSpec } from '../load/sse-load.js';
import { A2AJS, CEILING, KIT, type BenchContext } from '../context.js';
import { BINDINGS, LABEL, bindingRounds } from './binding-rounds.js';
import { baselineCheck, fmt, median, ratio, type Check, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function streamScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const { names, samples } = await bindingRounds<StreamLoadResult>(
    ctx,
    'stream',
    async (server, binding, durationSec) => {
      const spec: StreamLoadSpec = {
        url: server.url,
        binding,
        text: 'hello',
        concurrency: options.connections,
        durationSec,
      };
      const result = await ctx.load.call<StreamLoadResult>('streams', spec);
      const failed =
        result.failures > 0 || result.streams === 0
          ? `${result.failures} failed streams`
          : undefined;
      return { result, failed };
    },
  );
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
    // Issue 16 point 3: ≥ 4× @a2a-js/sdk streams/s, time to first event p50 ≤ 3 ms.
    checks.push(
      {
        target: `SendStreamingMessage ${LABEL[binding]} ≥ 4× @a2a-js/sdk streams/s`,
        measured: `${ratio(kit.streams / base.streams)} (${fmt(kit.streams)} vs ${fmt(base.streams)} streams/s)`,
        pass: kit.streams / base.streams >= 4,
      },
      {
        target: `SendStreamingMessage ${LABEL[binding]} time to first event p50 ≤ 3 ms`,
        measured: `${fmt(kit.ttfeP50, 2)} ms (the ceiling's ${fmt(ceiling.ttfeP50, 2)} ms)`,
        pass: kit.ttfeP50 <= 3,
      },
    );
    const baseline = ctx.baseline?.label;
    checks.push(
      ...baselineCheck(
        `SendStreamingMessage ${LABEL[binding]}`,
        kit.streams,
        baseline === undefined ? undefined : { label: baseline, value: med(baseline).streams },
        'streams/s',
      ),
    );
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
          'answers every stream with four fixed events at once. Load generator: the bench’s own ' +
          'SSE loop (bench/load/sse-load.ts) for every target: wrk cannot count events or time ' +
          'the first one.',
      },
    ],
    checks,
    data,
  };
}
