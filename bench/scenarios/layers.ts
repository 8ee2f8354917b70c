/**
 * Where a blocking request's CPU time goes: each layer of the a2a-kit server measured in process
 * (no sockets), next to the send scenario's per-request figures over HTTP. Rounds interleave
 * the layers; the table shows medians.
 */
import { fileURLToPath } from 'node:url';
import type { LayerResult } from '../inprocess/layers.js';
import { Child } from '../proc.js';
import type { BenchContext } from '../context.js';
import { fmt, median, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function layersScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const calls = options.smoke ? 500 : 40_000;
  const child = await Child.start({
    name: 'in-process layers',
    script: fileURLToPath(new URL('../inprocess/layers.js', import.meta.url)),
    cpu: ctx.pinning?.server,
  });
  try {
    const layers = await child.call<string[]>('layers', {});
    const samples = new Map<string, number[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`layers: round ${round + 1}/${options.rounds}`);
      for (const layer of layers) {
        const result = await child.call<LayerResult>('measure', {
          layer,
          calls,
          concurrency: options.connections,
        });
        samples.set(layer, [...(samples.get(layer) ?? []), result.cpuMicros]);
      }
    }
    const data: Record<string, number> = {};
    const rows = layers.map((layer) => {
      const cpu = median(samples.get(layer) ?? []);
      data[layer] = cpu;
      return [layer, fmt(cpu, 1)];
    });
    return {
      sections: [
        {
          title: `In process: CPU per echo task by layer (${options.connections} calls at a time)`,
          columns: ['layer', 'CPU µs/task'],
          rows,
          note:
            'No sockets: the request objects are made in process and the reply read back. The ' +
            'send table over HTTP adds node:http, the socket and the collector work they cause.',
        },
      ],
      checks: [],
      data,
    };
  } finally {
    await child.stop();
  }
}
