/**
 * What tracing costs (issue: OpenTelemetry traces and metrics): CPU per echo send in process
 * with no telemetry, with a2a-kit/otel but no SDK registered, and with the SDK recording to
 * memory, side by side in one run (rounds interleave the variants; medians), plus the otel
 * middleware's no-op path next to a pass-through middleware. Targets: SDK on costs at most 15 %;
 * no SDK is within noise (we read "within 3 %" for the send).
 */
import { fileURLToPath } from 'node:url';
import type { OtelResult } from '../inprocess/otel.js';
import { Child } from '../proc.js';
import type { BenchContext } from '../context.js';
import { fmt, median, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function otelScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const calls = options.smoke ? 500 : 20_000;
  const child = await Child.start({
    name: 'otel in process',
    script: fileURLToPath(new URL('../inprocess/otel.js', import.meta.url)),
    cpu: ctx.pinning?.server,
  });
  try {
    const variants = await child.call<string[]>('variants', {});
    const samples = new Map<string, number[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`otel: round ${round + 1}/${options.rounds}`);
      for (const variant of variants) {
        const r = await child.call<OtelResult>('measure', {
          variant,
          calls,
          concurrency: options.connections,
        });
        samples.set(variant, [...(samples.get(variant) ?? []), r.cpuMicros]);
      }
    }
    const data: Record<string, number> = {};
    for (const v of variants) data[v] = median(samples.get(v) ?? []);
    const base = data['send, no telemetry'] ?? NaN;
    const rows = variants.map((v) => {
      const cpu = data[v] ?? NaN;
      const ref = v.startsWith('middleware') ? data['middleware alone, pass-through'] : base;
      return [
        v,
        fmt(cpu, v.startsWith('middleware') ? 3 : 1),
        `${fmt((cpu / (ref ?? NaN) - 1) * 100, 1)} %`,
      ];
    });
    const on = (data['send, a2a-kit/otel, SDK to memory'] ?? NaN) / base - 1;
    const off = (data['send, a2a-kit/otel, no SDK registered'] ?? NaN) / base - 1;
    return {
      sections: [
        {
          title: `In process: CPU per echo send with and without tracing (${options.connections} at a time)`,
          columns: ['variant', 'CPU µs/call', 'vs. plain'],
          rows,
          note: 'No sockets. Over HTTP each send also pays node:http and the socket, so the share of tracing is smaller there.',
        },
      ],
      checks: [
        {
          target: 'SDK registered (in-memory export) costs <= 15 % per send',
          measured: `${fmt(on * 100, 1)} %`,
          pass: on <= 0.15,
        },
        {
          target: 'no SDK registered: within noise (<= 3 %) per send',
          measured: `${fmt(off * 100, 1)} %`,
          pass: off <= 0.03,
        },
      ],
      data,
    };
  } finally {
    await child.stop();
  }
}
