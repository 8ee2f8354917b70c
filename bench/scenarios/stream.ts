/**
 * SendStreamingMessage of the echo task (4 events: task, working, artifact, completed) over
 * JSON-RPC and HTTP+JSON, N concurrent streams, next to the node:http ceiling answering four
 * fixed SSE events. Streams/s and events/s come from wrk (issue 16 point 1: a native load
 * generator, counting each answer's events in its Lua hook) where the load generator has it;
 * the bench's own SSE loop (bench/load/sse-load.ts) times the first event of each stream, which
 * wrk cannot, and is what a run without wrk counts streams with (the report says so).
 */
import type { HttpLoadResult, HttpLoadSpec } from '../load/http-load.js';
import { A2A_HEADERS, sendRequest } from '../load/requests.js';
import type { StreamLoadResult, StreamLoadSpec } from '../load/sse-load.js';
import { A2AJS, CEILING, KIT, type BenchContext } from '../context.js';
import { BINDINGS, LABEL, bindingRounds } from './binding-rounds.js';
import { baselineCheck, fmt, median, ratio, type Check, type ScenarioResult } from '../report.js';

/** One round of one target: the SSE loop's streams and first events, and wrk's streams. */
interface StreamSample {
  loop: StreamLoadResult;
  wrk?: HttpLoadResult | undefined;
}

const EVENTS_PER_STREAM = 4;

/** Runs the scenario. */
export async function streamScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const native = ctx.http.wrk !== undefined;
  const { names, samples } = await bindingRounds<StreamSample>(
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
      const loop = await ctx.load.call<StreamLoadResult>('streams', spec);
      let failed =
        loop.failures > 0 || loop.streams === 0 ? `${loop.failures} failed streams` : undefined;
      if (!native) return { result: { loop }, failed };
      const { path, body } = sendRequest(binding, true, '[<id>]', 'hello');
      const load: HttpLoadSpec = {
        url: `${server.url}${path}`,
        method: 'POST',
        headers: { ...A2A_HEADERS, accept: 'text/event-stream' },
        body,
        connections: options.connections,
        durationSec,
        generator: 'wrk',
        countEvents: true,
      };
      const wrk = await ctx.load.call<HttpLoadResult>('http', load);
      if (wrk.failures > 0) failed ??= `${wrk.failures} failed streams (wrk)`;
      else if (wrk.events !== wrk.requests * EVENTS_PER_STREAM) {
        failed ??= `wrk counted ${wrk.events ?? 0} events in ${wrk.requests} streams, not ${EVENTS_PER_STREAM} each`;
      }
      return { result: { loop, wrk }, failed };
    },
  );
  const rows: string[][] = [];
  const checks: Check[] = [];
  const data: Record<string, unknown> = {};
  for (const binding of BINDINGS) {
    const med = (name: string) => {
      const runs = samples.get(`${binding} ${name}`) ?? [];
      const wrk = runs.flatMap((r) => (r.wrk === undefined ? [] : [r.wrk]));
      const loop = runs.map((r) => r.loop);
      return {
        streams: native
          ? median(wrk.map((r) => r.rps))
          : median(loop.map((r) => r.streams / r.seconds)),
        events: native
          ? median(wrk.map((r) => (r.rps * (r.events ?? 0)) / Math.max(1, r.requests)))
          : median(loop.map((r) => r.events / r.seconds)),
        /** wrk: from the request to the stream's end (its last event). */
        endP50: native ? median(wrk.map((r) => r.p50)) : Number.NaN,
        /** The SSE loop's own count, for the generator comparison. */
        loopStreams: median(loop.map((r) => r.streams / r.seconds)),
        ttfeP50: median(loop.map((r) => r.ttfeP50)),
        ttfeP99: median(loop.map((r) => r.ttfeP99)),
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
        native ? fmt(m.endP50, 2) : '—',
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
        measured:
          `${fmt(kit.ttfeP50, 2)} ms (the ceiling's ${fmt(ceiling.ttfeP50, 2)} ms` +
          (native
            ? `; by wrk the ceiling's streams end at ${fmt(ceiling.endP50, 2)} ms p50)`
            : ')'),
        pass: kit.ttfeP50 <= 3,
      },
    );
    if (binding === 'jsonrpc') {
      // Issue 16 point 1 for streams: the ceiling in the report is a native generator's.
      checks.unshift({
        target: 'bare node:http stream ceiling in the report within 15 % of wrk’s',
        measured: native
          ? `measured with wrk: ${fmt(ceiling.streams)} streams/s (1.00×); the SSE loop on the same server: ${fmt(ceiling.loopStreams)} streams/s (${ratio(ceiling.loopStreams / ceiling.streams)})`
          : `measured with the SSE loop (${fmt(ceiling.loopStreams)} streams/s): wrk unavailable, the ceiling is the generator’s`,
        pass: native,
      });
    }
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
          'end p50 ms',
          'TTFE p50 ms',
          'TTFE p99 ms',
          '× ceiling',
          '× a2a-js',
        ],
        rows,
        note:
          (native
            ? 'streams/s, events/s and end p50 (from the request to the last event) measured by ' +
              'wrk, counting each answer’s SSE events; '
            : 'wrk unavailable: streams/s and events/s are the bench’s own SSE loop’s, whose ' +
              'ceiling is the load generator’s, not the server’s; ') +
          'TTFE (from the request to the first complete SSE event) by the bench’s SSE loop ' +
          '(bench/load/sse-load.ts), in a run of its own just before, since wrk cannot time a ' +
          'first event: it includes that JavaScript loop’s own queueing under load. The ceiling ' +
          'answers every stream with four fixed events at once.',
      },
    ],
    checks,
    data,
  };
}
