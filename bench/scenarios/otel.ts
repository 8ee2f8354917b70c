/**
 * What tracing costs (issue: OpenTelemetry traces and metrics): CPU per echo send with no
 * telemetry, with a2a-kit/otel but no SDK registered, and with the SDK registered recording to
 * memory (BatchSpanProcessor and SimpleSpanProcessor), in process and over HTTP, side by side
 * in one run (rounds interleave the variants, each figure from a fresh child process; medians),
 * plus a breakdown (traces only, metrics only, the context manager alone, the SDK's own work for
 * a send's spans with none of a2a-kit's code: the bound) and the otel middleware's no-op path
 * next to a pass-through middleware. Targets: SDK on costs at most 15 %; no SDK is within noise
 * (we read "within 3 %").
 */
import { fileURLToPath } from 'node:url';
import { VARIANT, type OtelResult } from '../inprocess/otel-variants.js';
import { Child } from '../proc.js';
import type { BenchContext } from '../context.js';
import { fmt, median, type Check, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function otelScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const calls = options.smoke ? 500 : 20_000;
  const start = () =>
    Child.start({
      name: 'otel in process',
      script: fileURLToPath(new URL('../inprocess/otel.js', import.meta.url)),
      cpu: ctx.pinning?.server,
      args: ctx.pinning ? [`--load-cpu=${ctx.pinning.load}`] : [],
    });
  const lister = await start();
  const variants = await lister.call<string[]>('variants', {}).finally(() => lister.stop());
  const samples = new Map<string, number[]>();
  const spanCounts = new Map<string, number>();
  // Each figure from a fresh process (no JIT state, heap or promise hooks left by another
  // variant), the order rotated round by round so that no variant always follows the same one.
  for (let round = 0; round < options.rounds; round++) {
    ctx.log(`otel: round ${round + 1}/${options.rounds}`);
    const shift = round % variants.length;
    for (const variant of [...variants.slice(shift), ...variants.slice(0, shift)]) {
      const child = await start();
      try {
        const r = await child.call<OtelResult>('measure', {
          variant,
          calls,
          concurrency: options.connections,
        });
        samples.set(variant, [...(samples.get(variant) ?? []), r.cpuMicros]);
        spanCounts.set(variant, r.spansPerCall);
      } finally {
        await child.stop();
      }
    }
  }
  const data: Record<string, number> = {};
  for (const v of variants) data[v] = median(samples.get(v) ?? []);
  const spans = spanCounts;
  const rows = variants.map((v) => {
    const cpu = data[v] ?? NaN;
    const ref = v.startsWith('middleware')
      ? data[VARIANT.passThrough]
      : v.startsWith('over HTTP')
        ? data[VARIANT.httpPlain]
        : data[VARIANT.plain];
    return [
      v,
      fmt(cpu, v.startsWith('middleware') ? 3 : 1),
      `${fmt((cpu / (ref ?? NaN) - 1) * 100, 1)} %`,
      fmt(spans.get(v) ?? 0, 2),
    ];
  });
  const cost = (variant: string, base: string) => (data[variant] ?? NaN) / (data[base] ?? NaN) - 1;
  const sdkCheck = (variant: string, base: string, where: string): Check => {
    const c = cost(variant, base);
    return {
      target: `SDK registered (${where}) costs <= 15 % per send`,
      measured: `${fmt(c * 100, 1)} %`,
      pass: c <= 0.15,
    };
  };
  const off = cost(VARIANT.noSdk, VARIANT.plain);
  const offHttp = cost(VARIANT.httpNoSdk, VARIANT.httpPlain);
  return {
    sections: [
      {
        title: `CPU per echo send with and without tracing (${options.connections} at a time)`,
        columns: ['variant', 'CPU µs/call', 'vs. plain', 'spans/call'],
        rows,
        note:
          'In process: no sockets, the handler called directly. Over HTTP: the server process ' +
          'behind node:http on loopback, its CPU per send, requests sent by another process. ' +
          'The SDK is registered globally with the AsyncLocalStorage context manager, W3C trace ' +
          'context and baggage propagators, spans exported to memory (and dropped, as an ' +
          'exporter sends and forgets) through the BatchSpanProcessor (NodeSDK, production) or ' +
          'the SimpleSpanProcessor (one export per span), metrics to a reader. The bound row is ' +
          'what the SDK alone costs for the spans of a send: no instrumentation costs less. ' +
          'Each figure comes from its own process, the variants interleaved.',
      },
    ],
    checks: [
      sdkCheck(VARIANT.batch, VARIANT.plain, 'BatchSpanProcessor, in process'),
      sdkCheck(VARIANT.simple, VARIANT.plain, 'SimpleSpanProcessor, in process'),
      sdkCheck(VARIANT.httpBatch, VARIANT.httpPlain, 'BatchSpanProcessor, over HTTP'),
      sdkCheck(VARIANT.httpSimple, VARIANT.httpPlain, 'SimpleSpanProcessor, over HTTP'),
      {
        // Not a target of a2a-kit's code: whether the target is reachable at all with the SDK.
        target: "the bound: the SDK's own work for a send's two spans, no a2a-kit code, <= 15 %",
        measured: `${fmt(cost(VARIANT.floor, VARIANT.plain) * 100, 1)} %`,
        pass: cost(VARIANT.floor, VARIANT.plain) <= 0.15,
      },
      {
        target: 'no SDK registered: within noise (<= 3 %) per send, in process',
        measured: `${fmt(off * 100, 1)} %`,
        pass: off <= 0.03,
      },
      {
        target: 'no SDK registered: within noise (<= 3 %) per send, over HTTP',
        measured: `${fmt(offHttp * 100, 1)} %`,
        pass: offHttp <= 0.03,
      },
    ],
    data,
  };
}
