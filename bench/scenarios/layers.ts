/**
 * Where a blocking request's CPU time and allocation go: each layer of the a2a-kit server
 * measured in process (no sockets), next to the send scenario's per-request figures over HTTP.
 * Rounds interleave the layers; the table shows medians. The bytes allocated per request come from
 * a second child whose young generation holds all the calls' objects (bench/inprocess/layers.ts
 * `allocated`), checked against issue 16 point 5 (≤ 8 KB per blocking echo request).
 */
import { fileURLToPath } from 'node:url';
import type { AllocationResult, LayerResult } from '../inprocess/layers.js';
import { Child } from '../proc.js';
import type { BenchContext } from '../context.js';
import { bytes, fmt, median, type ScenarioResult } from '../report.js';

/**
 * Node flags of the child that measures allocation: 512 MB semi-spaces (no scavenge), and a full
 * collection before measuring (no growth of the old generation left to trigger one).
 */
const ALLOCATION_FLAGS = ['--max-semi-space-size=512', '--min-semi-space-size=512', '--expose-gc'];
/** Issue 16 point 5: bytes allocated per blocking echo SendMessage. */
const ALLOCATION_TARGET = 8 * 1024;
/** The layers that are a blocking echo request. */
const BLOCKING = ['HTTP handler, JSON-RPC SendMessage', 'HTTP handler, HTTP+JSON SendMessage'];

/** Bytes allocated per call of each layer: medians over the rounds, one child. */
async function allocation(
  ctx: BenchContext,
  layers: readonly string[],
): Promise<Map<string, { bytes: number; collections: number }>> {
  const calls = ctx.options.smoke ? 200 : 2_000;
  const child = await Child.start({
    name: 'in-process allocation',
    script: fileURLToPath(new URL('../inprocess/layers.js', import.meta.url)),
    cpu: ctx.pinning?.server,
    nodeFlags: ALLOCATION_FLAGS,
  });
  try {
    const samples = new Map<string, AllocationResult[]>();
    for (let round = 0; round < ctx.options.rounds; round++) {
      ctx.log(`layers: allocation, round ${round + 1}/${ctx.options.rounds}`);
      for (const layer of layers) {
        const result = await child.call<AllocationResult>('allocated', { layer, calls });
        samples.set(layer, [...(samples.get(layer) ?? []), result]);
      }
    }
    const out = new Map<string, { bytes: number; collections: number }>();
    for (const [layer, results] of samples) {
      out.set(layer, {
        bytes: median(results.map((r) => r.bytesPerCall)),
        collections: results.reduce((sum, r) => sum + r.collections, 0),
      });
    }
    return out;
  } finally {
    await child.stop();
  }
}

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
    const allocated = await allocation(ctx, layers);
    const data: Record<string, number> = {};
    const rows = layers.map((layer) => {
      const cpu = median(samples.get(layer) ?? []);
      const a = allocated.get(layer);
      data[layer] = cpu;
      data[`${layer}: bytes allocated`] = a?.bytes ?? NaN;
      const flag = a !== undefined && a.collections > 0 ? ` (${a.collections} GC)` : '';
      return [layer, fmt(cpu, 1), `${bytes(a?.bytes ?? NaN)}${flag}`];
    });
    const blocking = Math.max(...BLOCKING.map((layer) => allocated.get(layer)?.bytes ?? NaN));
    const clean = BLOCKING.every((layer) => allocated.get(layer)?.collections === 0);
    return {
      sections: [
        {
          title: `In process: CPU per echo task by layer (${options.connections} calls at a time)`,
          columns: ['layer', 'CPU µs/task', 'allocated/task'],
          rows,
          note:
            'No sockets: the request objects are made in process and the reply read back. The ' +
            'send table over HTTP adds node:http, the socket and the collector work they cause. ' +
            'Allocated: bytes per call, one call at a time, in a child whose young generation ' +
            "holds them all (heap growth over the calls; the driver's request text and objects " +
            'included; "GC" marks a figure a collection made too low).',
        },
      ],
      checks: [
        {
          target: '≤ 8 KB allocated per blocking echo request (JSON-RPC and HTTP+JSON, in process)',
          measured: `${bytes(blocking)}${clean ? '' : ' (a collection ran: too low)'}`,
          pass: clean && blocking <= ALLOCATION_TARGET,
        },
      ],
      data,
    };
  } finally {
    await child.stop();
  }
}
